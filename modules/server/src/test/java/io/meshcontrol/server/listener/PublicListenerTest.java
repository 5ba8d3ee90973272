package io.meshcontrol.server.listener;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.meshcontrol.core.key.NodePrivateKey;
import io.meshcontrol.core.wire.DERPNode;
import io.meshcontrol.server.relay.DerpSocketClient;
import io.meshcontrol.server.testing.TestServer;
import java.io.IOException;
import java.io.InputStream;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.Socket;
import java.net.SocketException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The main listener against clients that open connections and never finish a request: each is closed once the
 * header or idle timeout has passed (squeezed to one second here), and the server's own count of its open
 * connections comes back to where it was; an address over its cap is refused at once.
 */
class PublicListenerTest {

    /** Deadlines for conditions, generous: the timeouts are one second. */
    private static final Duration DEADLINE = Duration.ofSeconds(60);

    @TempDir
    Path folder;

    @Test
    void connectionsThatNeverFinishARequestAreClosedAndCountedNoMore() throws Exception {
        try (TestServer server = TestServer.in(folder).set("listener.header_timeout", "1s")
                .set("listener.idle_timeout", "1s").start()) {
            PublicListener listener = server.server.listener();
            int before = listener.openConnections();
            List<Socket> sockets = new ArrayList<>();
            try {
                for (int i = 0; i < 300; i++) {
                    Socket socket = new Socket();
                    socket.connect(server.server.httpAddress(), 10_000);
                    sockets.add(socket);
                    if (i % 3 == 1) { // half a header, never finished
                        socket.getOutputStream().write("GET /version HTTP/1.1\r\nHost: x\r\nX-Slow: "
                                .getBytes(StandardCharsets.US_ASCII));
                    } else if (i % 3 == 2) { // a body promised and never sent
                        socket.getOutputStream().write(("POST /api/v1/user HTTP/1.1\r\nHost: x\r\n"
                                + "Content-Length: 100\r\nContent-Type: application/json\r\n\r\n{")
                                .getBytes(StandardCharsets.US_ASCII));
                    } // and every third says nothing at all
                }
                for (Socket socket : sockets) {
                    assertTrue(closedByServer(socket), "connection " + sockets.indexOf(socket) + " was closed");
                }
                waitFor(() -> listener.openConnections() == before, "the server counts them no more");
                // 300 from loopback, more than the default cap of 128: loopback (a reverse proxy) is exempt
                assertEquals(0, listener.refusedConnections());
            } finally {
                for (Socket socket : sockets) {
                    socket.close();
                }
            }
            assertEquals(before, metric(server, "svc_http_open_connections"), "the gauge says so");
        }
    }

    /**
     * java.net.http offers an h2c upgrade on a connection's first request; Undertow's upgrade cut about one large
     * answer in a hundred short (the client then read document text as a frame header). The listener declines it.
     */
    @Test
    void clientsOfferingH2cGetWholeHttp11Answers() throws Exception {
        try (TestServer server = TestServer.start(folder)) {
            HttpRequest request = HttpRequest.newBuilder(server.url().resolve("/api/v1/openapi.yaml")).build();
            String expected = null;
            for (int i = 0; i < 150; i++) {
                try (HttpClient client = HttpClient.newHttpClient()) { // a new connection, so a new upgrade offer
                    HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString());
                    assertEquals(200, response.statusCode());
                    assertEquals(HttpClient.Version.HTTP_1_1, response.version());
                    expected = expected == null ? response.body() : expected;
                    assertEquals(expected, response.body(), "answer " + i);
                }
            }
            assertTrue(expected.length() > 100_000, "a large answer: " + expected.length());
        }
    }

    @Test
    void anAddressOverItsCapIsRefusedAtOnce() throws Exception {
        Optional<InetAddress> own = ownNonLoopbackAddress();
        assumeTrue(own.isPresent(), "this machine has no address besides loopback to connect from");
        try (TestServer server = TestServer.in(folder).set("listen_addr", own.get().getHostAddress() + ":0")
                .set("listener.max_connections_per_address", "3").start()) {
            PublicListener listener = server.server.listener();
            InetSocketAddress address = server.server.httpAddress();
            List<Socket> held = new ArrayList<>();
            try {
                for (int i = 0; i < 3; i++) {
                    held.add(new Socket(address.getAddress(), address.getPort()));
                }
                waitFor(() -> listener.openConnections() == 3, "three connections held");
                try (Socket fourth = new Socket(address.getAddress(), address.getPort())) {
                    assertTrue(closedByServer(fourth), "the fourth is closed on arrival");
                }
                assertEquals(1, listener.refusedConnections());
                held.removeFirst().close();
                waitFor(() -> listener.openConnections() == 2, "one went away");
                try (Socket again = new Socket(address.getAddress(), address.getPort())) {
                    again.getOutputStream().write("GET /version HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
                            .getBytes(StandardCharsets.US_ASCII));
                    String answer = new String(again.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
                    assertTrue(answer.startsWith("HTTP/1.1 200"), answer);
                }
            } finally {
                for (Socket socket : held) {
                    socket.close();
                }
            }
            assertEquals(1, metric(server, "svc_http_refused_connections_total"), "counted in the metrics");
        }
    }

    private static double metric(TestServer server, String name) throws Exception {
        return server.scrapeMetrics().body().lines().filter(line -> line.startsWith(name + " "))
                .mapToDouble(line -> Double.parseDouble(line.substring(name.length() + 1).strip()))
                .findFirst().orElseThrow(() -> new AssertionError(name + " not in the metrics"));
    }

    @Test
    void derpConnectionsOutliveTheTimeoutsOnBothListeners() throws Exception {
        try (TestServer server = TestServer.in(folder).relay(false).set("listener.header_timeout", "1s")
                .set("listener.idle_timeout", "1s").start()) {
            DERPNode node = server.server.mapContext().derpMap().regions().get(999).nodes().getFirst();
            InetSocketAddress tls = new InetSocketAddress("127.0.0.1", node.derpPort());
            try (DerpSocketClient plain = DerpSocketClient.connect(server.server.httpAddress(), NodePrivateKey.generate());
                    DerpSocketClient pinned = DerpSocketClient.connectPinned(tls, node.hostName(), node.certName(),
                            NodePrivateKey.generate())) {
                assertEquals(0, server.server.listener().openConnections(), "switched connections are not counted");
                Thread.sleep(3000); // three idle timeouts, no byte either way
                plain.send(0x04, pinned.key.publicKey().bytes(), "still here".getBytes());
                DerpSocketClient.Frame got = pinned.read();
                assertEquals(0x05, got.type());
                assertEquals("still here", new String(got.payload(), 32, got.payload().length - 32));
            }
        }
    }

    /** Whether the server closed {@code socket}: a read ends (EOF or reset) instead of waiting for data. */
    private static boolean closedByServer(Socket socket) throws IOException {
        socket.setSoTimeout((int) DEADLINE.toMillis());
        InputStream in = socket.getInputStream();
        try {
            while (in.read() != -1) {
                // a 408 or 400 before the close is fine; the close is what counts
            }
            return true;
        } catch (SocketException e) {
            return true; // reset: closed too
        }
    }

    private static void waitFor(BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + DEADLINE.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not within " + DEADLINE + ": " + what);
            }
            Thread.sleep(50);
        }
    }

    private static Optional<InetAddress> ownNonLoopbackAddress() throws SocketException {
        return NetworkInterface.networkInterfaces()
                .filter(i -> {
                    try {
                        return i.isUp() && !i.isLoopback();
                    } catch (SocketException e) {
                        return false;
                    }
                })
                .flatMap(NetworkInterface::inetAddresses)
                .filter(a -> a instanceof Inet4Address && !a.isLinkLocalAddress() && !a.isLoopbackAddress())
                .findFirst();
    }
}
