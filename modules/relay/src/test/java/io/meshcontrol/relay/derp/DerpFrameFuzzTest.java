package io.meshcontrol.relay.derp;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import com.code_intelligence.jazzer.mutation.annotation.NotNull;
import com.code_intelligence.jazzer.mutation.annotation.WithLength;
import io.meshcontrol.core.crypto.NaclBox;
import io.meshcontrol.core.key.NodePrivateKey;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.time.Duration;

/**
 * Coverage-guided fuzzing of what a DERP client sends the relay: bytes before the handshake, the ClientInfo JSON
 * inside its sealed box, and frames after the handshake. A session refuses bad input by dropping its connection
 * ({@link DerpProtocolException} inside {@link DerpSession#received}); nothing may escape {@code received}, which runs
 * on the transport's I/O thread, and what the relay sends back must still be well-formed frames ({@link FakeClient}
 * decodes them). See docs/development.md, "Reliability suite".
 */
class DerpFrameFuzzTest {

    private static final DerpServer SERVER = new DerpServer(NodePrivateKey.generate(), key -> true,
            Duration.ofMinutes(1), Duration.ofMinutes(1), 32);
    /** A connected peer, so that packets can have a destination that is here. */
    private static final FakeClient PEER = handshaken();

    private static FakeClient handshaken() {
        try {
            return FakeClient.handshaken(SERVER);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    @FuzzTest(maxDuration = "10s")
    void beforeHandshake(byte @NotNull @WithLength(max = 8192) [] bytes) {
        FakeClient client = FakeClient.connect(SERVER);
        try {
            client.send(bytes);
        } finally {
            client.session.closed();
        }
    }

    @FuzzTest(maxDuration = "10s")
    void clientInfo(byte @NotNull @WithLength(max = 8192) [] json) throws Exception {
        FakeClient client = FakeClient.connect(SERVER);
        try {
            byte[] nonce = new byte[NaclBox.NONCE_LENGTH];
            byte[] box = NaclBox.seal(json, nonce, SERVER.publicKey().bytes(), client.key.bytes());
            client.send(Frame.of(FrameType.CLIENT_INFO, client.publicKey().bytes(), nonce, box));
        } finally {
            client.session.closed();
        }
    }

    /** Frames of fuzzed types and payloads (packets addressed to the peer or anywhere), and raw bytes, in chunks. */
    @FuzzTest(maxDuration = "10s")
    void afterHandshake(FuzzedDataProvider data) throws Exception {
        FakeClient client = FakeClient.handshaken(SERVER);
        try {
            ByteArrayOutputStream stream = new ByteArrayOutputStream();
            int parts = data.consumeInt(0, 8);
            for (int i = 0; i < parts; i++) {
                switch (data.consumeInt(0, 2)) {
                    case 0 -> stream.writeBytes(Frame.of(FrameType.SEND_PACKET, PEER.publicKey().bytes(),
                            data.consumeBytes(data.consumeInt(0, 2000))).encode());
                    case 1 -> stream.writeBytes(Frame.of(data.consumeByte(),
                            data.consumeBytes(data.consumeInt(0, 2000))).encode());
                    default -> stream.writeBytes(data.consumeBytes(data.consumeInt(0, 2000)));
                }
            }
            byte[] bytes = stream.toByteArray();
            int offset = 0;
            while (offset < bytes.length) {
                int chunk = Math.min(bytes.length - offset, 1 + data.consumeInt(0, 3000));
                client.session.received(ByteBuffer.wrap(bytes, offset, chunk));
                offset += chunk;
            }
        } finally {
            client.session.closed();
            PEER.drain();
        }
    }
}
