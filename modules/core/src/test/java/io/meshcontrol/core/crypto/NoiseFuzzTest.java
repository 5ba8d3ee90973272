package io.meshcontrol.core.crypto;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import com.code_intelligence.jazzer.mutation.annotation.NotNull;
import com.code_intelligence.jazzer.mutation.annotation.WithLength;
import io.meshcontrol.core.key.MachinePrivateKey;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;

/**
 * Coverage-guided fuzzing of the Noise layer a ts2021 client talks to before it is trusted: the handshake initiation
 * from the upgrade header, and the record stream after it. The only refusal allowed is {@link NoiseProtocolException};
 * anything else would cut the connection with a stack trace. See docs/development.md, "Reliability suite".
 */
class NoiseFuzzTest {

    private static final MachinePrivateKey SERVER_KEY = MachinePrivateKey.generate();
    private static final MachinePrivateKey CLIENT_KEY = MachinePrivateKey.generate();
    private static final NoiseResponder RESPONDER = new NoiseResponder(SERVER_KEY);

    @FuzzTest(maxDuration = "10s")
    void handshakeInitiation(byte @NotNull @WithLength(max = 256) [] initiation) {
        try {
            RESPONDER.respond(initiation);
        } catch (NoiseProtocolException refused) {
            // the documented refusal
        }
    }

    /**
     * A record stream as a client may send it: genuine records of fuzzed plaintext and fuzzed raw bytes, cut into
     * fuzzed chunks. While only genuine records came, the decoder must hand back exactly their plaintexts, in order
     * (an empty plaintext makes no record at all).
     */
    @FuzzTest(maxDuration = "10s")
    void transportRecords(FuzzedDataProvider data) throws Exception {
        NoiseInitiator initiator = NoiseInitiator.start(CLIENT_KEY, SERVER_KEY.publicKey(), 88);
        AcceptedHandshake accepted = RESPONDER.respond(initiator.initiationMessage());
        NoiseTransport client = initiator.complete(accepted.response());
        RecordDecoder decoder = accepted.transport().decoder();

        ByteArrayOutputStream stream = new ByteArrayOutputStream();
        ByteArrayOutputStream sent = new ByteArrayOutputStream();
        boolean genuine = true;
        int parts = data.consumeInt(0, 8);
        for (int i = 0; i < parts; i++) {
            if (data.consumeBoolean()) {
                byte[] plaintext = data.consumeBytes(data.consumeInt(0, NoiseFrames.MAX_PLAINTEXT_LENGTH));
                sent.writeBytes(plaintext);
                stream.writeBytes(client.encoder().encode(plaintext));
            } else {
                genuine = false;
                stream.writeBytes(data.consumeBytes(data.consumeInt(0, 5000)));
            }
        }
        byte[] bytes = stream.toByteArray();
        ByteArrayOutputStream received = new ByteArrayOutputStream();
        try {
            int offset = 0;
            while (offset < bytes.length) {
                int chunk = Math.min(bytes.length - offset, 1 + data.consumeInt(0, 6000));
                for (ByteBuffer plaintext : decoder.decodeAvailable(ByteBuffer.wrap(bytes, offset, chunk))) {
                    byte[] copy = new byte[plaintext.remaining()];
                    plaintext.get(copy);
                    received.writeBytes(copy);
                }
                offset += chunk;
            }
            decoder.endOfStream();
        } catch (NoiseProtocolException refused) {
            assertFalse(genuine, "genuine records refused: " + refused.getMessage());
            return;
        }
        if (genuine) {
            assertArrayEquals(sent.toByteArray(), received.toByteArray());
        }
    }
}
