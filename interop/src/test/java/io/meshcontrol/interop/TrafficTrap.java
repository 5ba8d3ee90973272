package io.meshcontrol.interop;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * An HTTP proxy on 127.0.0.1 that forwards nothing: it records each request line ({@code CONNECT
 * log.tailscale.com:443 HTTP/1.1}) and answers 403. A node's HTTP_PROXY, HTTPS_PROXY and TS_LOG_TARGET point
 * here, so anything tailscaled tries to fetch from the internet lands in {@link #requests()} instead of
 * leaving the machine (the same idea as the "traffic trap" in tailscale's own integration tests).
 * Loopback destinations bypass proxies (NO_PROXY and Go's httpproxy rules), so control traffic to a
 * test server on 127.0.0.1 is unaffected.
 */
final class TrafficTrap implements AutoCloseable {

    private static final byte[] REFUSAL = ("HTTP/1.1 403 Forbidden\r\nContent-Type: text/plain\r\nConnection: close\r\n"
            + "Content-Length: 45\r\n\r\nsvc interop: traffic off this host is blocked").getBytes(StandardCharsets.US_ASCII);

    private final ServerSocket server;
    private final List<String> requests = new CopyOnWriteArrayList<>();

    TrafficTrap() {
        try {
            server = new ServerSocket();
            server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open the traffic trap on loopback", e);
        }
        Thread.ofVirtual().name("traffic-trap-" + server.getLocalPort()).start(this::acceptLoop);
    }

    /** {@code http://127.0.0.1:<port>}, for the proxy variables. */
    String url() {
        return "http://127.0.0.1:" + server.getLocalPort();
    }

    /** Request lines received so far, oldest first. */
    List<String> requests() {
        return List.copyOf(requests);
    }

    @Override
    public void close() {
        try {
            server.close();
        } catch (IOException ignored) {
            // closing a listener that is going away anyway
        }
    }

    private void acceptLoop() {
        while (!server.isClosed()) {
            try {
                Socket connection = server.accept();
                Thread.ofVirtual().start(() -> refuse(connection));
            } catch (IOException e) {
                return; // closed
            }
        }
    }

    private void refuse(Socket connection) {
        try (connection) {
            connection.setSoTimeout(5_000);
            requests.add(readRequestLine(connection.getInputStream()));
            connection.getOutputStream().write(REFUSAL);
        } catch (IOException e) {
            requests.add("(unreadable request: " + e + ")");
        }
    }

    private static String readRequestLine(InputStream in) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        for (int b = in.read(); b >= 0 && b != '\n' && line.size() < 2048; b = in.read()) {
            if (b != '\r') {
                line.write(b);
            }
        }
        return line.toString(StandardCharsets.ISO_8859_1);
    }
}
