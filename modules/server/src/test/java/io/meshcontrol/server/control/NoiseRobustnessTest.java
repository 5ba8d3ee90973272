package io.meshcontrol.server.control;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.core.RateLimitedLog;
import io.meshcontrol.core.crypto.NoiseFrames;
import io.meshcontrol.core.crypto.NoiseInitiator;
import io.meshcontrol.core.key.MachinePrivateKey;
import io.meshcontrol.server.testing.TestServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A client that breaks the protocol, at the upgrade or later, costs the server one closed connection and one log line
 * naming the problem and the peer; a good connection open at the same time does not notice.
 */
class NoiseRobustnessTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(20);

    @TempDir
    Path folder;

    private TestServer server;
    private NoiseTestClient goodNoise;
    private Http2TestClient good;

    @BeforeEach
    void startWithAGoodConnection() throws Exception {
        server = TestServer.start(folder);
        MachineTestEndpoints.register(server.server.machineRoutes());
        goodNoise = NoiseTestClient.connect(address(), server.server.noisePublicKey(), 142);
        good = new Http2TestClient(goodNoise);
        assertEquals(200, good.request("GET", "/machine/test/whoami", null).status(TIMEOUT));
    }

    @AfterEach
    void theGoodConnectionStillWorks() throws Exception {
        try {
            good.ping(TIMEOUT);
            byte[] body = NoiseConduitTest.pattern(200_000, 3);
            assertArrayEquals(body, good.request("POST", "/machine/test/echo", body).body(TIMEOUT));
        } finally {
            good.close();
            server.close();
        }
    }

    /** An upgrade request that is refused before any Noise byte: what it sends, the status, the logged reason. */
    record UpgradeCase(String name, Function<NoiseInitiator, Map<String, String>> headers, String reason) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<UpgradeCase> refusedUpgrades() {
        return Stream.of(
                new UpgradeCase("no Upgrade header",
                        init -> Map.of("X-Tailscale-Handshake", init.initiationHeaderValue()), "missing next protocol"),
                new UpgradeCase("another protocol", init -> Map.of("Upgrade", "websocket", "Connection", "upgrade",
                        "X-Tailscale-Handshake", init.initiationHeaderValue()), "unknown next protocol"),
                new UpgradeCase("no handshake header", init -> Map.of("Upgrade", "tailscale-control-protocol",
                        "Connection", "upgrade"), "missing Tailscale handshake header"),
                new UpgradeCase("handshake header not base64", init -> Map.of("Upgrade", "tailscale-control-protocol",
                        "Connection", "upgrade", "X-Tailscale-Handshake", "not base64!"),
                        "invalid tailscale handshake header"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("refusedUpgrades")
    void anUnusableUpgradeRequestIsA400AndAClose(UpgradeCase refused) throws Exception {
        NoiseInitiator initiator = NoiseInitiator.start(MachinePrivateKey.generate(), server.server.noisePublicKey(), 142);
        try (LogCapture log = new LogCapture(); Socket socket = NoiseTestClient.open(address())) {
            NoiseTestClient.sendUpgrade(socket, "POST", refused.headers().apply(initiator));
            NoiseTestClient.HttpHead head = NoiseTestClient.readHead(socket.getInputStream());
            assertEquals(400, head.status());
            assertEquals("close", head.headers().get("connection"));
            String body = new String(NoiseTestClient.readToEnd(socket), StandardCharsets.UTF_8);
            assertEquals(refused.reason() + "\n", body);
            assertOneLine(log, socket, "upgrade", refused.reason());
        }
    }

    static Stream<Arguments> malformedInitiations() {
        return Stream.of(
                Arguments.of("too short", (Function<byte[], byte[]>) init -> Arrays.copyOf(init, 50),
                        "wrong handshake initiation size"),
                Arguments.of("too long", (Function<byte[], byte[]>) init -> Arrays.copyOf(init, 102),
                        "wrong handshake initiation size"),
                Arguments.of("not an initiation", (Function<byte[], byte[]>) init -> set(init, 2, 4),
                        "unexpected handshake message type"),
                Arguments.of("wrong length field", (Function<byte[], byte[]>) init -> set(init, 4, 95),
                        "wrong handshake initiation length"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("malformedInitiations")
    void aMalformedInitiationGetsTailscalesErrorFrame(String name, Function<byte[], byte[]> damage, String hint)
            throws Exception {
        NoiseInitiator initiator = NoiseInitiator.start(MachinePrivateKey.generate(), server.server.noisePublicKey(), 142);
        byte[] sent = damage.apply(initiator.initiationMessage());
        try (LogCapture log = new LogCapture(); Socket socket = upgrade(sent)) {
            assertArrayEquals(NoiseFrames.errorFrame(hint), NoiseTestClient.readToEnd(socket),
                    "the error frame, then the end of the stream");
            assertOneLine(log, socket, "handshake", hint);
        }
    }

    @Test
    void aFloodOfMalformedHandshakesLogsAFewLinesNotOnePerHandshake() throws Exception {
        int flood = 50;
        try (LogCapture log = new LogCapture()) {
            for (int i = 0; i < flood; i++) {
                NoiseInitiator initiator = NoiseInitiator.start(MachinePrivateKey.generate(),
                        server.server.noisePublicKey(), 142);
                try (Socket socket = upgrade(Arrays.copyOf(initiator.initiationMessage(), 50))) {
                    assertArrayEquals(NoiseFrames.errorFrame("wrong handshake initiation size"),
                            NoiseTestClient.readToEnd(socket), "every client still gets its error frame");
                }
            }
            List<String> lines = log.settledLines(RateLimitedLog.DEFAULT_PER_INTERVAL);
            assertEquals(RateLimitedLog.DEFAULT_PER_INTERVAL, lines.size(), String.join("\n", lines));
            assertTrue(lines.stream().allMatch(line -> line.contains("ts2021 handshake from 127.0.0.1:")), lines::toString);
            assertTrue(lines.getLast().endsWith("(further ts2021 handshake warnings in this 1m are counted, not logged)"),
                    lines.getLast());
        }
    }

    @Test
    void aClientOlderThanNoiseGetsAnErrorFrame() throws Exception {
        NoiseInitiator initiator = NoiseInitiator.start(MachinePrivateKey.generate(), server.server.noisePublicKey(), 1);
        try (LogCapture log = new LogCapture(); Socket socket = upgrade(initiator.initiationMessage())) {
            assertArrayEquals(NoiseFrames.errorFrame("unsupported protocol version"), NoiseTestClient.readToEnd(socket));
            assertOneLine(log, socket, "handshake", "protocol version 1 is older than 28");
        }
    }

    @Test
    void aForgedVersionFailsTheHandshakeSilently() throws Exception {
        NoiseInitiator initiator = NoiseInitiator.start(MachinePrivateKey.generate(), server.server.noisePublicKey(), 130);
        byte[] forged = set(initiator.initiationMessage(), 1, 131);
        try (LogCapture log = new LogCapture(); Socket socket = upgrade(forged)) {
            assertEquals(0, NoiseTestClient.readToEnd(socket).length, "no hint for a handshake that fails its crypto");
            assertOneLine(log, socket, "handshake", "HANDSHAKE_FAILED");
        }
    }

    @Test
    void anInitiationForAnotherServerKeyFailsSilently() throws Exception {
        NoiseInitiator initiator = NoiseInitiator.start(MachinePrivateKey.generate(),
                MachinePrivateKey.generate().publicKey(), 142);
        try (LogCapture log = new LogCapture(); Socket socket = upgrade(initiator.initiationMessage())) {
            assertEquals(0, NoiseTestClient.readToEnd(socket).length);
            assertOneLine(log, socket, "handshake", "HANDSHAKE_FAILED");
        }
    }

    static Stream<Arguments> badRecords() {
        byte[] fakeCiphertext = new byte[40];
        Arrays.fill(fakeCiphertext, (byte) 0x5a);
        return Stream.of(
                Arguments.of("an oversized record", frame(4, 4094, new byte[100]), "FRAME_TOO_LARGE"),
                Arguments.of("plain HTTP", "GET / HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII),
                        "UNKNOWN_MESSAGE_TYPE"),
                Arguments.of("a handshake response", frame(2, 48, new byte[48]), "UNEXPECTED_MESSAGE_TYPE"),
                Arguments.of("a record shorter than its tag", frame(4, 5, new byte[5]), "RECORD_TOO_SHORT"),
                Arguments.of("a record that does not authenticate", frame(4, 40, fakeCiphertext), "DECRYPTION_FAILED"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badRecords")
    void aBadRecordClosesTheConnectionWithOneLine(String name, byte[] bytes, String problem) throws Exception {
        try (LogCapture log = new LogCapture();
                NoiseTestClient noise = NoiseTestClient.connect(address(), server.server.noisePublicKey(), 142)) {
            noise.writeRaw(bytes);
            NoiseTestClient.readToEnd(noise.socket);
            assertOneLine(log, noise.socket, "connection", problem);
        }
    }

    @Test
    void garbageAfterAWorkingExchangeClosesOnlyThatConnection() throws Exception {
        try (LogCapture log = new LogCapture();
                NoiseTestClient noise = NoiseTestClient.connect(address(), server.server.noisePublicKey(), 142);
                Http2TestClient http2 = new Http2TestClient(noise)) {
            assertEquals(200, http2.request("GET", "/machine/test/whoami", null).status(TIMEOUT));
            noise.writeRaw(new byte[] {4, 0, 30, 1, 2, 3});
            noise.writeRaw(new byte[27]);
            http2.readerEnded.get(TIMEOUT.toSeconds(), java.util.concurrent.TimeUnit.SECONDS);
            assertOneLine(log, noise.socket, "connection", "DECRYPTION_FAILED");
        }
    }

    @Test
    void encryptedBytesThatAreNotHttp2CloseTheConnectionWithOneLine() throws Exception {
        try (LogCapture log = new LogCapture();
                NoiseTestClient noise = NoiseTestClient.connect(address(), server.server.noisePublicKey(), 142)) {
            noise.writePlaintext("GET /machine/map HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            NoiseTestClient.readToEnd(noise.socket);
            assertOneLine(log, noise.socket, "connection", "HTTP/2");
        }
    }

    @Test
    void aStreamCutInsideARecordIsATruncation() throws Exception {
        try (LogCapture log = new LogCapture();
                NoiseTestClient noise = NoiseTestClient.connect(address(), server.server.noisePublicKey(), 142)) {
            byte[] record = noise.transport.encoder().encrypt(Http2TestClient.PREFACE);
            noise.writeRaw(Arrays.copyOf(record, 20));
            noise.socket.shutdownOutput();
            NoiseTestClient.readToEnd(noise.socket);
            assertOneLine(log, noise.socket, "connection", "TRUNCATED_FRAME");
        }
    }

    @Test
    void aClientThatLeavesPolitelyIsNotAProblem() throws Exception {
        try (LogCapture log = new LogCapture()) {
            try (NoiseTestClient noise = NoiseTestClient.connect(address(), server.server.noisePublicKey(), 142);
                    Http2TestClient http2 = new Http2TestClient(noise)) {
                assertEquals(200, http2.request("GET", "/machine/test/whoami", null).status(TIMEOUT));
            }
            assertEquals(List.of(), log.settledLines());
        }
    }

    @Test
    void aClientThatResetsItsConnectionIsNotAProblem() throws Exception {
        try (LogCapture log = new LogCapture()) {
            NoiseTestClient noise = NoiseTestClient.connect(address(), server.server.noisePublicKey(), 142);
            try (Http2TestClient http2 = new Http2TestClient(noise)) {
                assertEquals(200, http2.request("GET", "/machine/test/whoami", null).status(TIMEOUT));
                noise.socket.setSoLinger(true, 0);
                noise.socket.close(); // a reset (RST), as a client that times out and gives up leaves
            }
            assertEquals(List.of(), log.settledLines(), "a reset is a disconnect: nothing above DEBUG");
        }
    }

    @Test
    void aClientThatLeavesDuringAnAnswerIsNotAServerError() throws Exception {
        try (LogCapture log = new LogCapture()) {
            NoiseTestClient noise = NoiseTestClient.connect(address(), server.server.noisePublicKey(), 142);
            try (Http2TestClient http2 = new Http2TestClient(noise)) {
                Http2TestClient.Exchange poll = http2.request("GET",
                        "/machine/test/stream?chunks=20&pauseMillis=100&size=20", null);
                assertEquals(200, poll.status(TIMEOUT));
                noise.socket.setSoLinger(true, 0);
                noise.socket.close(); // gone while the server is still writing the answer
            }
            Thread.sleep(500); // the handler's next writes fail now
            assertEquals(List.of(), log.settledLines(), "the handler's failed write is a disconnect");
        }
    }

    /** Sends an upgrade with these initiation bytes and reads the 101. */
    private Socket upgrade(byte[] initiation) throws IOException {
        Socket socket = NoiseTestClient.open(address());
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("Upgrade", "tailscale-control-protocol");
        headers.put("Connection", "upgrade");
        headers.put("X-Tailscale-Handshake", Base64.getEncoder().encodeToString(initiation));
        NoiseTestClient.sendUpgrade(socket, "POST", headers);
        NoiseTestClient.HttpHead head = NoiseTestClient.readHead(socket.getInputStream());
        assertEquals(101, head.status(), "Tailscale's server switches first and refuses inside the new protocol");
        assertEquals("tailscale-control-protocol", head.headers().get("upgrade"));
        return socket;
    }

    private static void assertOneLine(LogCapture log, Socket socket, String stage, String problem)
            throws InterruptedException {
        List<String> lines = log.settledLines(1);
        assertEquals(1, lines.size(), "exactly one line: " + lines);
        String line = lines.getFirst();
        assertTrue(line.startsWith("WARNING "), line);
        assertTrue(line.contains("ts2021 " + stage + " from 127.0.0.1:" + socket.getLocalPort() + " "), line);
        assertTrue(line.contains(problem), line);
    }

    private static byte[] frame(int type, int length, byte[] body) {
        byte[] frame = new byte[3 + body.length];
        frame[0] = (byte) type;
        frame[1] = (byte) (length >>> 8);
        frame[2] = (byte) length;
        System.arraycopy(body, 0, frame, 3, body.length);
        return frame;
    }

    private static byte[] set(byte[] bytes, int index, int value) {
        byte[] copy = bytes.clone();
        copy[index] = (byte) value;
        return copy;
    }

    private InetSocketAddress address() {
        return new InetSocketAddress("127.0.0.1", server.server.httpAddress().getPort());
    }
}
