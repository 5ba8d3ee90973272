package io.meshcontrol.notify;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.SSLSocketFactory;

/**
 * One HTTP/1.1 POST to an address the {@link Egress} check allowed. The JDK's HTTP client resolves names by itself,
 * so it could connect somewhere other than what was checked; this connects the socket to the checked address and
 * sends the URL's host in {@code Host} (and, for https, in SNI and the certificate check). Only the status line is
 * read; redirects are answers like any other and never followed. The whole exchange has {@link #TIMEOUT}.
 */
public final class GuardedPost {

    /** The spec's wait for a response. */
    public static final Duration TIMEOUT = Duration.ofSeconds(15);
    private static final int MAX_STATUS_LINE = 8192;

    /** What the receiver said: a status, or why none came. */
    public record Answer(int status, String error) {
        static Answer failed(String error) {
            return new Answer(0, error);
        }
    }

    private final ScheduledExecutorService timer;
    private final SSLSocketFactory tls;
    private final Duration timeout;

    public GuardedPost(ScheduledExecutorService timer, SSLSocketFactory tls, Duration timeout) {
        this.timer = timer;
        this.tls = tls;
        this.timeout = timeout;
    }

    public Answer post(Egress.Allowed target, Map<String, String> headers, byte[] body) {
        URI uri = target.uri();
        boolean https = uri.getScheme().equalsIgnoreCase("https");
        int port = uri.getPort() > 0 ? uri.getPort() : https ? 443 : 80;
        InetAddress address = target.addresses().getFirst();
        Socket socket = new Socket();
        // The deadline covers connecting, TLS, sending and the answer: a receiver that trickles bytes cannot hold on.
        ScheduledFuture<?> deadline = timer.schedule(() -> closeQuietly(socket), timeout.toMillis(),
                TimeUnit.MILLISECONDS);
        try {
            socket.connect(new InetSocketAddress(address, port), (int) timeout.toMillis());
            socket.setSoTimeout((int) timeout.toMillis());
            Socket stream = socket;
            if (https) {
                SSLSocket secure = (SSLSocket) tls.createSocket(socket, uri.getHost(), port, true);
                SSLParameters parameters = secure.getSSLParameters();
                parameters.setEndpointIdentificationAlgorithm("HTTPS");
                secure.setSSLParameters(parameters);
                secure.startHandshake();
                stream = secure;
            }
            OutputStream out = stream.getOutputStream();
            out.write(head(uri, port, https, headers, body.length).getBytes(StandardCharsets.ISO_8859_1));
            out.write(body);
            out.flush();
            return new Answer(status(new BufferedInputStream(stream.getInputStream())), null);
        } catch (SocketTimeoutException e) {
            return Answer.failed("no answer within " + timeout.toSeconds() + " s");
        } catch (IOException e) {
            if (deadline.isDone()) {
                return Answer.failed("no answer within " + timeout.toSeconds() + " s");
            }
            return Answer.failed(e.getMessage() == null || e.getMessage().isBlank()
                    ? e.getClass().getSimpleName() : e.getMessage());
        } finally {
            deadline.cancel(false);
            closeQuietly(socket);
        }
    }

    private static String head(URI uri, int port, boolean https, Map<String, String> headers, int length) {
        String target = (uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath())
                + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery());
        boolean defaultPort = port == (https ? 443 : 80);
        StringBuilder head = new StringBuilder("POST ").append(target).append(" HTTP/1.1\r\n")
                .append("Host: ").append(uri.getHost()).append(defaultPort ? "" : ":" + port).append("\r\n")
                .append("User-Agent: svc\r\n")
                .append("Content-Length: ").append(length).append("\r\n")
                .append("Connection: close\r\n");
        headers.forEach((name, value) -> head.append(name).append(": ").append(value).append("\r\n"));
        return head.append("\r\n").toString();
    }

    /** The status of {@code HTTP/1.x NNN reason}. */
    private static int status(InputStream in) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        int b;
        while ((b = in.read()) != -1 && b != '\n') {
            if (line.size() >= MAX_STATUS_LINE) {
                throw new IOException("the answer's status line is too long");
            }
            line.write(b);
        }
        String text = line.toString(StandardCharsets.ISO_8859_1).trim();
        String[] parts = text.split(" ", 3);
        if (parts.length < 2 || !parts[0].startsWith("HTTP/") || !parts[1].matches("[1-5][0-9][0-9]")) {
            throw new IOException(text.isEmpty() ? "the connection closed without an answer"
                    : "not an HTTP answer: " + text.substring(0, Math.min(80, text.length())));
        }
        return Integer.parseInt(parts[1]);
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException ignored) {
            // closing to give up; nothing to add
        }
    }
}
