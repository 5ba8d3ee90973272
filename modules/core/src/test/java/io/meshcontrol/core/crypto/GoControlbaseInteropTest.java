package io.meshcontrol.core.crypto;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.meshcontrol.core.key.ChallengePublicKey;
import io.meshcontrol.core.key.MachinePrivateKey;
import io.meshcontrol.core.key.MachinePublicKey;
import io.meshcontrol.core.key.X25519;
import java.io.BufferedOutputStream;
import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import io.meshcontrol.core.testing.GoCheckPrograms;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;

/**
 * Our Noise code against Tailscale's own, through {@code interop/noisecheck} (Go, linking
 * {@code tailscale.com/control/controlbase} and {@code control/ts2021}), over TCP:
 * <ul>
 *   <li>its client handshakes with our {@link NoiseResponder}, reads our early payload and a greeting, and has
 *       everything it writes echoed back;</li>
 *   <li>our {@link NoiseInitiator} handshakes with its server, reads its greeting and has everything echoed back.</li>
 * </ul>
 * Each side writes 300 single-record messages and 1 MiB, so both directions pass counter 255 and the big-endian nonce
 * is exercised for real.
 *
 * <p>Needs Go on the PATH, and the Go module proxy the first time (the first build takes about a minute, later ones
 * come from Go's cache). Runs only when asked:
 *
 * <pre>
 * ./mvnw -B -q -pl modules/core -am test -Dsvc.interop=true -Dtest=GoControlbaseInteropTest \
 *     -Dsurefire.failIfNoSpecifiedTests=false
 * </pre>
 */
@EnabledIfSystemProperty(named = "svc.interop", matches = "true")
class GoControlbaseInteropTest {

    private static final int GREETING_LENGTH = 100_000;
    /** The largest read we do; reads are of random sizes up to this, so records arrive cut at arbitrary points. */
    private static final int LARGEST_READ = 1500;
    private static final int SMALL_WRITES = 300;
    private static final int LARGE_WRITE = 1 << 20;
    private static final int CLIENT_PROTOCOL_VERSION = 130;

    @TempDir
    Path output;

    record ServerOutcome(AcceptedHandshake handshake, int recordsReceived, int recordsSent, long bytesEchoed) {
    }

    @Test
    void tailscaleClientHandshakesAndExchangesRecordsWithOurResponder() throws Exception {
        Path program = GoCheckPrograms.build("noisecheck", output);
        MachinePrivateKey serverKey = MachinePrivateKey.generate();
        NoiseResponder responder = new NoiseResponder(serverKey);
        ChallengePublicKey challenge = ChallengePublicKey.fromRaw(X25519.publicKey(X25519.generatePrivateKey()));

        // The listener is closed first, so a server still waiting in accept() lets the executor shut down.
        try (ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
                ServerSocket listener = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            Future<ServerOutcome> server = executor.submit(() -> serve(listener, responder, challenge));

            Path stdout = output.resolve("stdout");
            Path stderr = output.resolve("stderr");
            Process go = new ProcessBuilder(program.toString(),
                    "-addr", "127.0.0.1:" + listener.getLocalPort(),
                    "-server-key", serverKey.publicKey().toText(),
                    "-greeting", String.valueOf(GREETING_LENGTH))
                    .redirectOutput(stdout.toFile())
                    .redirectError(stderr.toFile())
                    .start();
            if (!go.waitFor(3, TimeUnit.MINUTES)) {
                go.destroyForcibly();
                fail("noisecheck did not finish within 3 minutes");
            }
            String errors = Files.readString(stderr);
            assertEquals(0, go.exitValue(), "noisecheck failed:\n" + errors);

            Map<String, String> report = GoCheckPrograms.report(Files.readString(stdout));
            ServerOutcome outcome = server.get(1, TimeUnit.MINUTES);
            AcceptedHandshake handshake = outcome.handshake();
            assertEquals(report.get("client-key"), handshake.clientKey().toText());
            assertEquals(report.get("protocol-version"), String.valueOf(handshake.protocolVersion()));
            assertEquals(report.get("peer"), serverKey.publicKey().toText());
            assertEquals(report.get("handshake-hash"), HexFormat.of().formatHex(handshake.transport().handshakeHash()));
            assertEquals(report.get("early-payload-challenge"), challenge.toText());
            assertEquals(String.valueOf(GREETING_LENGTH), report.get("greeting-ok"));
            assertEquals(report.get("echo-ok"), String.valueOf(outcome.bytesEchoed()));
            assertTrue(outcome.recordsReceived() > 300 + 255, "records received: " + outcome.recordsReceived());
            assertTrue(outcome.recordsSent() > 300 + 255, "records sent: " + outcome.recordsSent());
        }
    }

    @Test
    void ourInitiatorHandshakesAndExchangesRecordsWithTailscalesServer() throws Exception {
        Path program = GoCheckPrograms.build("noisecheck", output);
        Path stderr = output.resolve("stderr");
        Process go = new ProcessBuilder(program.toString(), "-serve", "-greeting", String.valueOf(GREETING_LENGTH))
                .redirectError(stderr.toFile())
                .start();
        try (BufferedReader lines = new BufferedReader(
                new InputStreamReader(go.getInputStream(), StandardCharsets.UTF_8));
                ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor()) {
            Map<String, String> report = new HashMap<>();
            while (!report.containsKey("listen") || !report.containsKey("server-key")) {
                String line = lines.readLine();
                if (line == null) {
                    go.waitFor(1, TimeUnit.MINUTES);
                    fail("noisecheck -serve ended before listening:\n" + Files.readString(stderr));
                }
                report.putAll(GoCheckPrograms.report(line));
            }
            String[] address = report.get("listen").split(":");
            MachinePrivateKey clientKey = MachinePrivateKey.generate();
            MachinePublicKey serverKey = MachinePublicKey.parse(report.get("server-key"));

            NoiseTransport transport;
            byte[] sent = echoPayload();
            byte[] echoed;
            int recordsSent;
            int recordsReceived;
            try (Socket socket = new Socket(address[0], Integer.parseInt(address[1]))) {
                socket.setSoTimeout((int) TimeUnit.MINUTES.toMillis(2));
                InputStream in = socket.getInputStream();
                OutputStream out = socket.getOutputStream();
                NoiseInitiator initiator = NoiseInitiator.start(clientKey, serverKey, CLIENT_PROTOCOL_VERSION);
                out.write(initiator.initiationMessage());
                out.flush();
                byte[] header = in.readNBytes(NoiseFrames.HEADER_LENGTH);
                byte[] body = in.readNBytes(NoiseFrames.declaredLength(header, 0));
                transport = initiator.complete(concat(header, body));

                PlaintextReader reader = new PlaintextReader(in, transport.decoder());
                assertArrayEquals(pattern(GREETING_LENGTH), reader.readExactly(GREETING_LENGTH));
                int greetingRecords = reader.records();

                Future<byte[]> echo = executor.submit(() -> reader.readExactly(sent.length));
                recordsSent = writeEchoPayload(out, transport.encoder());
                echoed = echo.get(2, TimeUnit.MINUTES);
                recordsReceived = reader.records() - greetingRecords;
                socket.shutdownOutput();
                assertEquals(-1, in.read(), "the server closes after echoing everything");
            }
            if (!go.waitFor(1, TimeUnit.MINUTES)) {
                go.destroyForcibly();
                fail("noisecheck -serve did not finish");
            }
            assertEquals(0, go.exitValue(), "noisecheck -serve failed:\n" + Files.readString(stderr));
            for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                report.putAll(GoCheckPrograms.report(line));
            }

            assertArrayEquals(sent, echoed);
            assertEquals(clientKey.publicKey().toText(), report.get("client-key"));
            assertEquals(String.valueOf(CLIENT_PROTOCOL_VERSION), report.get("protocol-version"));
            assertEquals(HexFormat.of().formatHex(transport.handshakeHash()), report.get("handshake-hash"));
            assertEquals(String.valueOf(sent.length), report.get("echoed"));
            assertTrue(recordsSent > 300 + 255, "records sent: " + recordsSent);
            assertTrue(recordsReceived > 255, "records received: " + recordsReceived);
        } finally {
            go.destroy();
        }
    }

    /** What the Java client sends to be echoed: 300 short messages, then 1 MiB, like the Go client. */
    private static byte[] echoPayload() {
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        for (int i = 0; i < SMALL_WRITES; i++) {
            all.writeBytes(pattern(1 + i * 37 % 200));
        }
        all.writeBytes(pattern(LARGE_WRITE));
        return all.toByteArray();
    }

    /** Writes {@link #echoPayload()} as the Go client does (one record per short message) and counts the records. */
    private static int writeEchoPayload(OutputStream out, RecordEncoder encoder) throws IOException {
        int records = 0;
        for (int i = 0; i < SMALL_WRITES; i++) {
            out.write(encoder.encrypt(pattern(1 + i * 37 % 200)));
            records++;
        }
        byte[] large = encoder.encode(pattern(LARGE_WRITE));
        out.write(large);
        out.flush();
        return records + (large.length + NoiseFrames.MAX_FRAME_LENGTH - 1) / NoiseFrames.MAX_FRAME_LENGTH;
    }

    /** Blocking reads of decrypted bytes, for the Java client. */
    private static final class PlaintextReader {
        private final InputStream in;
        private final RecordDecoder decoder;
        private final ByteArrayOutputStream pending = new ByteArrayOutputStream();
        private final byte[] buffer = new byte[LARGEST_READ];
        private int records;

        PlaintextReader(InputStream in, RecordDecoder decoder) {
            this.in = in;
            this.decoder = decoder;
        }

        byte[] readExactly(int length) throws IOException {
            while (pending.size() < length) {
                int read = in.read(buffer);
                if (read < 0) {
                    decoder.endOfStream();
                    throw new IOException("stream ended after " + pending.size() + " of " + length + " bytes");
                }
                for (ByteBuffer record : decoder.decodeAvailable(ByteBuffer.wrap(buffer, 0, read))) {
                    byte[] plaintext = new byte[record.remaining()];
                    record.get(plaintext);
                    pending.writeBytes(plaintext);
                    records++;
                }
            }
            byte[] all = pending.toByteArray();
            pending.reset();
            pending.write(all, length, all.length - length);
            return Arrays.copyOf(all, length);
        }

        int records() {
            return records;
        }
    }

    private static byte[] concat(byte[] first, byte[] second) {
        byte[] out = Arrays.copyOf(first, first.length + second.length);
        System.arraycopy(second, 0, out, first.length, second.length);
        return out;
    }

    /** One connection, blocking: handshake, early payload, greeting, then echo every record until the client closes. */
    private static ServerOutcome serve(ServerSocket listener, NoiseResponder responder, ChallengePublicKey challenge)
            throws IOException {
        try (Socket socket = listener.accept()) {
            socket.setSoTimeout((int) TimeUnit.MINUTES.toMillis(2));
            InputStream in = socket.getInputStream();
            OutputStream out = new BufferedOutputStream(socket.getOutputStream(), 64 * 1024);

            AcceptedHandshake handshake = responder.respond(in.readNBytes(NoiseFrames.INITIATION_LENGTH));
            RecordEncoder encoder = handshake.transport().encoder();
            RecordDecoder decoder = handshake.transport().decoder();
            byte[] earlyNoise = ("{\"nodeKeyChallenge\":\"" + challenge.toText() + "\"}")
                    .getBytes(StandardCharsets.UTF_8);
            out.write(handshake.response());
            out.write(encoder.encode(EarlyPayload.encode(earlyNoise)));
            byte[] greeting = pattern(GREETING_LENGTH);
            out.write(encoder.encode(greeting));
            out.flush();
            int recordsSent = RecordEncoder.encodedLength(greeting.length) / NoiseFrames.MAX_FRAME_LENGTH + 2;

            Random random = new Random(7);
            byte[] buffer = new byte[LARGEST_READ];
            int recordsReceived = 0;
            long bytesEchoed = 0;
            while (true) {
                int read = in.read(buffer, 0, 1 + random.nextInt(LARGEST_READ));
                if (read < 0) {
                    decoder.endOfStream();
                    return new ServerOutcome(handshake, recordsReceived, recordsSent, bytesEchoed);
                }
                for (ByteBuffer record : decoder.decodeAvailable(ByteBuffer.wrap(buffer, 0, read))) {
                    byte[] plaintext = new byte[record.remaining()];
                    record.get(plaintext);
                    out.write(encoder.encode(plaintext));
                    recordsReceived++;
                    recordsSent += (plaintext.length + NoiseFrames.MAX_PLAINTEXT_LENGTH - 1)
                            / NoiseFrames.MAX_PLAINTEXT_LENGTH;
                    bytesEchoed += plaintext.length;
                }
                out.flush();
            }
        }
    }

    /** Same as the Go side: byte i is (7 * i + i / 251) mod 256. */
    private static byte[] pattern(int length) {
        byte[] bytes = new byte[length];
        for (int i = 0; i < length; i++) {
            bytes[i] = (byte) (7 * i + i / 251);
        }
        return bytes;
    }
}
