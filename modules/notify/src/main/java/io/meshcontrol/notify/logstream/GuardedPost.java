package io.meshcontrol.notify.logstream;

import io.meshcontrol.core.address.EgressGuard;
import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import javax.net.ssl.SNIHostName;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;

/**
 * An HTTP/1.1 POST whose connection goes to the address the {@link EgressGuard} checked: the host name is resolved
 * once, every address it resolves to must pass, and the socket is opened to one of those addresses (so a name that
 * resolves differently between check and connect, DNS rebinding, gains nothing). Over https the certificate is
 * verified for the host name in the URL, which is also sent as SNI and {@code Host}. Redirects are not followed: any
 * answer but 2xx is a failure.
 */
final class GuardedPost {

    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(10);
    /** How long a destination may take to answer, as for webhooks (the spec's Limits). */
    private static final Duration RESPONSE_TIMEOUT = Duration.ofSeconds(15);

    private final EgressGuard guard;
    private final LogStreamSender.Resolver resolver;
    private final SSLContext tls;

    GuardedPost(EgressGuard guard, LogStreamSender.Resolver resolver, SSLContext tls) {
        this.guard = guard;
        this.resolver = resolver;
        this.tls = tls;
    }

    /**
     * Posts {@code request} to {@code url}; returns the status of a 2xx answer.
     *
     * @throws IOException naming why it failed: a refused address, no connection, or the status of another answer
     */
    int post(String url, LogRequest request) throws IOException {
        URI uri = URI.create(url);
        String host = uri.getHost();
        boolean https = "https".equalsIgnoreCase(uri.getScheme());
        int port = uri.getPort() > 0 ? uri.getPort() : https ? 443 : 80;
        InetAddress address = checked(host);
        try (Socket socket = open(address, host, port, https)) {
            socket.setSoTimeout((int) RESPONSE_TIMEOUT.toMillis());
            OutputStream out = socket.getOutputStream();
            String path = uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath();
            StringBuilder head = new StringBuilder("POST ").append(path)
                    .append(uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery()).append(" HTTP/1.1\r\n")
                    .append("Host: ").append(uri.getHost()).append(uri.getPort() > 0 ? ":" + uri.getPort() : "")
                    .append("\r\n").append("Content-Length: ").append(request.body().length).append("\r\n")
                    .append("Connection: close\r\n").append("User-Agent: meshcontrol-logstream\r\n");
            for (Map.Entry<String, String> header : request.headers().entrySet()) {
                head.append(header.getKey()).append(": ").append(header.getValue()).append("\r\n");
            }
            out.write(head.append("\r\n").toString().getBytes(StandardCharsets.ISO_8859_1));
            out.write(request.body());
            out.flush();
            int status = status(new BufferedInputStream(socket.getInputStream()));
            if (status < 200 || status > 299) {
                throw new IOException("the destination answered " + status
                        + (status >= 300 && status < 400 ? " (a redirect, which is not followed)" : ""));
            }
            return status;
        }
    }

    private InetAddress checked(String host) throws IOException {
        InetAddress[] addresses = resolver.resolve(host);
        if (addresses.length == 0) {
            throw new UnknownHostException(host);
        }
        for (InetAddress address : addresses) {
            var refusal = guard.refusal(address);
            if (refusal.isPresent()) {
                throw new IOException(host + " resolves to " + refusal.get() + ", which is refused as a destination");
            }
        }
        return addresses[0];
    }

    private Socket open(InetAddress address, String host, int port, boolean https) throws IOException {
        Socket plain = new Socket();
        try {
            plain.connect(new InetSocketAddress(address, port), (int) CONNECT_TIMEOUT.toMillis());
            if (!https) {
                return plain;
            }
            SSLSocket socket = (SSLSocket) tls.getSocketFactory().createSocket(plain, host, port, true);
            SSLParameters parameters = socket.getSSLParameters();
            parameters.setEndpointIdentificationAlgorithm("HTTPS");
            if (!host.contains(":") && !host.matches("[0-9.]+")) { // SNI names hosts, never address literals
                parameters.setServerNames(List.of(new SNIHostName(host)));
            }
            socket.setSSLParameters(parameters);
            socket.startHandshake();
            return socket;
        } catch (IOException e) {
            plain.close();
            throw e;
        }
    }

    /** The status code of the answer's status line. */
    private static int status(InputStream in) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        for (int b = in.read(); b != -1 && b != '\n'; b = in.read()) {
            if (line.size() > 1024) {
                throw new IOException("the destination's status line is too long");
            }
            line.write(b);
        }
        String[] parts = line.toString(StandardCharsets.ISO_8859_1).trim().split(" ", 3);
        if (parts.length < 2 || !parts[0].startsWith("HTTP/1.")) {
            throw new IOException("the destination did not answer HTTP/1.1");
        }
        try {
            return Integer.parseInt(parts[1]);
        } catch (NumberFormatException e) {
            throw new IOException("the destination's status line is malformed");
        }
    }
}
