package io.meshcontrol.server.control;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.core.key.ChallengePublicKey;
import io.meshcontrol.core.key.MachinePrivateKey;
import io.meshcontrol.core.key.NodePrivateKey;
import io.meshcontrol.server.testing.TestServer;
import java.net.InetSocketAddress;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code /key} and {@code /ts2021} on a real server, driven by the raw Java client. */
class ControlTransportTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(20);
    private static final int CURRENT_VERSION = 142;

    @TempDir
    Path folder;

    private TestServer server;

    @BeforeEach
    void start() {
        server = TestServer.start(folder);
        MachineTestEndpoints.register(server.server.machineRoutes());
    }

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void keyServesTheNoiseKeyAndTheZeroLegacyKey() {
        HttpResponse<String> response = server.request("GET", "/key?v=142", null, null);
        assertEquals(200, response.statusCode());
        assertEquals("{\"legacyPublicKey\":\"mkey:" + "0".repeat(64) + "\",\"publicKey\":\""
                + server.server.noisePublicKey().toText() + "\"}", response.body());
        assertEquals("application/json", response.headers().firstValue("Content-Type").orElseThrow());
    }

    @Test
    void keyNeedsTheClientsVersion() {
        HttpResponse<String> missing = server.request("GET", "/key", null, null);
        assertEquals(400, missing.statusCode());
        assertTrue(missing.body().contains("query parameter v"), missing.body());
        assertEquals("application/problem+json", missing.headers().firstValue("Content-Type").orElseThrow());
        HttpResponse<String> words = server.request("GET", "/key?v=latest", null, null);
        assertEquals(400, words.statusCode());
        assertTrue(words.body().contains("must be a number"), words.body());
    }

    @Test
    void theNoiseKeyIsKeptInItsFileAcrossRestarts() throws Exception {
        String first = server.server.noisePublicKey().toText();
        Path keyFile = server.dataDir.resolve("noise_private.key");
        assertEquals(first, MachinePrivateKey.load(keyFile).publicKey().toText());
        server.close();
        server = TestServer.start(folder);
        assertEquals(first, server.server.noisePublicKey().toText());
        assertTrue(Files.readString(keyFile).startsWith("privkey:"));
    }

    @Test
    void handshakeBindsTheConnectionToTheClientsKeyAndSendsAChallenge() throws Exception {
        try (NoiseTestClient noise = connect(CURRENT_VERSION); Http2TestClient http2 = new Http2TestClient(noise)) {
            assertEquals("tailscale-control-protocol", noise.head.headers().get("upgrade"));
            Matcher early = Pattern.compile("\\{\"nodeKeyChallenge\":\"(chalpub:[0-9a-f]{64})\"}")
                    .matcher(noise.earlyPayload());
            assertTrue(early.matches(), noise.earlyPayload());
            ChallengePublicKey challenge = ChallengePublicKey.parse(early.group(1));

            Http2TestClient.Exchange whoami = http2.request("GET", "/machine/test/whoami", null);
            assertEquals(200, whoami.status(TIMEOUT));
            assertEquals("{\"machineKey\":\"" + noise.machineKey.publicKey().toText() + "\",\"protocolVersion\":"
                    + CURRENT_VERSION + ",\"nodeKeyChallenge\":\"" + challenge.toText() + "\"}",
                    new String(whoami.body(TIMEOUT), StandardCharsets.UTF_8));
        }
    }

    @Test
    void clientsOlderThanEarlyNoiseGetNoEarlyPayload() throws Exception {
        try (NoiseTestClient noise = connect(48); Http2TestClient http2 = new Http2TestClient(noise)) {
            assertEquals(null, noise.earlyPayload());
            assertEquals(Http2TestClient.SETTINGS, http2.firstFrameType.get(20, TimeUnit.SECONDS),
                    "the first plaintext is HTTP/2, no early payload");
            Http2TestClient.Exchange whoami = http2.request("GET", "/machine/test/whoami", null);
            assertTrue(new String(whoami.body(TIMEOUT), StandardCharsets.UTF_8)
                    .endsWith("\"protocolVersion\":48,\"nodeKeyChallenge\":\"\"}"));
        }
    }

    @Test
    void unknownMachinePathsAre404AndWrongMethods405() throws Exception {
        try (NoiseTestClient noise = connect(CURRENT_VERSION); Http2TestClient http2 = new Http2TestClient(noise)) {
            Http2TestClient.Exchange unknown = http2.request("POST", "/machine/nothing-here", new byte[0]);
            assertEquals(404, unknown.status(TIMEOUT));
            assertEquals("no such endpoint: /machine/nothing-here\n",
                    new String(unknown.body(TIMEOUT), StandardCharsets.UTF_8));
            assertEquals(405, http2.request("GET", "/machine/test/echo", null).status(TIMEOUT));
            assertEquals(404, http2.request("GET", "/api/v1/server", null).status(TIMEOUT),
                    "the v1 API is not served over Noise");
        }
    }

    @Test
    void largeBodiesPassBothWays() throws Exception {
        byte[] upload = NoiseConduitTest.pattern(3 * 1024 * 1024 + 17, 5);
        try (NoiseTestClient noise = connect(CURRENT_VERSION); Http2TestClient http2 = new Http2TestClient(noise)) {
            long start = System.nanoTime();
            Http2TestClient.Exchange echo = http2.request("POST", "/machine/test/echo", upload);
            assertEquals(200, echo.status(TIMEOUT));
            assertArrayEquals(upload, echo.body(TIMEOUT));
            Duration took = Duration.ofNanos(System.nanoTime() - start);
            System.out.printf("3 MiB echo over ts2021 (Java test client): %d ms, %.1f MiB/s each way%n",
                    took.toMillis(), 3.0 / (took.toNanos() / 1e9));

            Http2TestClient.Exchange download = http2.request("GET", "/machine/test/download?size=2500000", null);
            assertArrayEquals(NoiseConduitTest.pattern(2_500_000, 42), download.body(TIMEOUT));
            Http2TestClient.Exchange fromIoThread = http2.request("GET", "/machine/test/download-async", null);
            assertArrayEquals(NoiseConduitTest.pattern(1 << 20, 42), fromIoThread.body(TIMEOUT));
        }
    }

    @Test
    void concurrentRequestsShareOneConnection() throws Exception {
        try (NoiseTestClient noise = connect(CURRENT_VERSION); Http2TestClient http2 = new Http2TestClient(noise)) {
            List<byte[]> bodies = new ArrayList<>();
            List<Http2TestClient.Exchange> exchanges = new ArrayList<>();
            for (int i = 0; i < 50; i++) {
                byte[] body = NoiseConduitTest.pattern(ThreadLocalRandom.current().nextInt(1, 70_000), i);
                bodies.add(body);
                exchanges.add(http2.request("POST", "/machine/test/echo", body));
            }
            for (int i = 0; i < exchanges.size(); i++) {
                assertArrayEquals(bodies.get(i), exchanges.get(i).body(TIMEOUT), "request " + i);
            }
        }
    }

    @Test
    void eachFlushedMessageArrivesBeforeTheNextIsWritten() throws Exception {
        try (NoiseTestClient noise = connect(CURRENT_VERSION); Http2TestClient http2 = new Http2TestClient(noise)) {
            Http2TestClient.Exchange stream = http2.request("GET",
                    "/machine/test/stream?chunks=6&pauseMillis=400&size=64", null);
            assertEquals(200, stream.status(TIMEOUT));
            ByteBuffer received = ByteBuffer.allocate(6 * 68);
            long previousArrival = 0;
            int messages = 0;
            while (messages < 6) {
                Http2TestClient.Chunk chunk = stream.nextChunk(TIMEOUT);
                assertNotNull(chunk, "message " + messages + " did not arrive");
                if (chunk.data().length == 0) {
                    continue;
                }
                assertEquals(68, chunk.data().length, "one flush, one DATA frame, one whole message");
                ByteBuffer message = ByteBuffer.wrap(chunk.data());
                assertEquals(64, message.order(ByteOrder.LITTLE_ENDIAN).getInt(0));
                assertEquals(messages, message.order(ByteOrder.BIG_ENDIAN).getInt(4));
                long lag = System.currentTimeMillis() - message.getLong(8);
                assertTrue(lag < 200, "message " + messages + " arrived " + lag + " ms after its flush");
                if (messages > 0) {
                    long gap = Duration.ofNanos(chunk.arrivedNanos() - previousArrival).toMillis();
                    assertTrue(gap >= 300, "messages arrive one by one, " + gap + " ms apart");
                }
                previousArrival = chunk.arrivedNanos();
                received.put(chunk.data());
                messages++;
            }
            stream.body(TIMEOUT);
        }
    }

    @Test
    void largeStreamedMessagesArriveWholeAndInOrderThroughTheClientsFlowControlWindow() throws Exception {
        // Each message is many times the client's 64 KiB window, so the I/O thread stops at the window again and
        // again, and the writing thread waits for the connection and hands over the rest.
        int size = 1_500_000;
        try (NoiseTestClient noise = connect(CURRENT_VERSION); Http2TestClient http2 = new Http2TestClient(noise)) {
            Http2TestClient.Exchange stream = http2.request("GET",
                    "/machine/test/stream?chunks=3&pauseMillis=0&size=" + size, null);
            assertEquals(200, stream.status(TIMEOUT));
            ByteBuffer body = ByteBuffer.wrap(stream.body(TIMEOUT));
            assertEquals(3 * (4 + size), body.remaining());
            for (int i = 0; i < 3; i++) {
                byte[] received = new byte[4 + size];
                body.get(received);
                long sentMillis = ByteBuffer.wrap(received, 8, 8).getLong();
                assertArrayEquals(MachineTestEndpoints.streamMessage(i, size, sentMillis), received, "message " + i);
            }
        }
    }

    @Test
    void aFailingHandlerGivesA500WithAnErrorIdAndTheConnectionLives() throws Exception {
        try (NoiseTestClient noise = connect(CURRENT_VERSION); Http2TestClient http2 = new Http2TestClient(noise);
                LogCapture log = new LogCapture()) {
            Http2TestClient.Exchange failed = http2.request("GET", "/machine/test/fail", null);
            assertEquals(500, failed.status(TIMEOUT));
            String body = new String(failed.body(TIMEOUT), StandardCharsets.UTF_8);
            Matcher id = Pattern.compile(".*error id ([a-z0-9]{12})\\n").matcher(body);
            assertTrue(id.matches(), body);
            assertTrue(log.lines().stream().anyMatch(line -> line.contains("error id " + id.group(1))), log.lines()
                    .toString());
            assertEquals(200, http2.request("GET", "/machine/test/whoami", null).status(TIMEOUT));
        }
    }

    @Test
    void machineRequestsAreCountedInTheHttpMetricsUnderTheirRouteTemplate() throws Exception {
        try (NoiseTestClient noise = connect(CURRENT_VERSION); Http2TestClient http2 = new Http2TestClient(noise)) {
            assertEquals(200, http2.request("GET", "/machine/test/whoami", null).status(TIMEOUT));
            assertEquals(500, http2.request("GET", "/machine/test/fail", null).status(TIMEOUT));
            assertEquals(404, http2.request("GET", "/machine/" + noise.machineKey.publicKey().toText(), null)
                    .status(TIMEOUT));
        }
        String metrics = server.scrapeMetrics().body();
        assertTrue(metrics.contains(
                "svc_http_requests_total{method=\"GET\",route=\"/machine/test/whoami\",status=\"200\"} 1"), metrics);
        assertTrue(metrics.contains(
                "svc_http_requests_total{method=\"GET\",route=\"/machine/test/fail\",status=\"500\"} 1"),
                "counted with the status the error stage answered: " + metrics);
        assertTrue(metrics.contains(
                "svc_http_requests_total{method=\"GET\",route=\"unmatched\",status=\"404\"} 1"), metrics);
        assertTrue(metrics.contains("svc_http_request_duration_seconds_bucket{method=\"GET\",route=\"/machine/test/whoami\""));
        assertFalse(metrics.contains("mkey:"), "no raw path with a key in it becomes a label");
    }

    @Test
    void mapRefusalsAreALineOfPlainText() throws Exception {
        try (NoiseTestClient noise = connect(CURRENT_VERSION); Http2TestClient http2 = new Http2TestClient(noise)) {
            String unknownNode = "{\"Version\":" + CURRENT_VERSION + ",\"NodeKey\":\""
                    + NodePrivateKey.generate().publicKey().toText() + "\"}";
            Http2TestClient.Exchange unregistered = http2.request("POST", "/machine/map",
                    unknownNode.getBytes(StandardCharsets.UTF_8));
            assertEquals(401, unregistered.status(TIMEOUT));
            assertEquals("text/plain; charset=utf-8", unregistered.headers.get().get("content-type"));
            assertEquals("node key not registered; register first\n",
                    new String(unregistered.body(TIMEOUT), StandardCharsets.UTF_8));
            String old = "{\"Version\":20,\"NodeKey\":\"" + NodePrivateKey.generate().publicKey().toText() + "\"}";
            Http2TestClient.Exchange tooOld = http2.request("POST", "/machine/map", old.getBytes(StandardCharsets.UTF_8));
            assertEquals(400, tooOld.status(TIMEOUT));
            assertTrue(new String(tooOld.body(TIMEOUT), StandardCharsets.UTF_8).startsWith(
                    "this Tailscale client is too old for this server"));
        }
    }

    @Test
    void malformedMachineRequestsAreRefusedAsTheClientsFault() throws Exception {
        try (NoiseTestClient noise = connect(CURRENT_VERSION); Http2TestClient http2 = new Http2TestClient(noise)) {
            for (String path : List.of("/machine/map", "/machine/register")) {
                for (String body : List.of("not json", "{\"Version\": \"many\"}", "[1]", "{\"NodeKey\": 7}")) {
                    Http2TestClient.Exchange refused = http2.request("POST", path, body.getBytes(StandardCharsets.UTF_8));
                    assertEquals(400, refused.status(TIMEOUT), path + " " + body);
                    assertTrue(new String(refused.body(TIMEOUT), StandardCharsets.UTF_8).startsWith("malformed "),
                            path + " " + body);
                }
            }
            // Well-formed, but without the node key every client sends: nothing to register.
            for (String body : List.of("{\"Version\": 142}", "{\"Version\": 142, \"NodeKey\": \"nodekey:"
                    + "0".repeat(64) + "\"}")) {
                Http2TestClient.Exchange refused = http2.request("POST", "/machine/register",
                        body.getBytes(StandardCharsets.UTF_8));
                assertEquals(400, refused.status(TIMEOUT), body);
                assertTrue(new String(refused.body(TIMEOUT), StandardCharsets.UTF_8).contains("no node key"), body);
            }
        }
    }

    private NoiseTestClient connect(int version) throws Exception {
        return NoiseTestClient.connect(address(), server.server.noisePublicKey(), version);
    }

    private InetSocketAddress address() {
        return new InetSocketAddress("127.0.0.1", server.server.httpAddress().getPort());
    }
}
