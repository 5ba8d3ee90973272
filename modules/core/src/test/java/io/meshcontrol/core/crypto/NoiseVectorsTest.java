package io.meshcontrol.core.crypto;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import io.meshcontrol.core.key.MachinePrivateKey;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Published known-answer vectors for {@code Noise_IK_25519_ChaChaPoly_BLAKE2s}, from the files the Rust Noise library
 * snow ships ({@code tests/vectors/cacophony.txt} and {@code tests/vectors/snow.txt}, repository mcginty/snow).
 *
 * <p>Messages 0 and 1 are the handshake. The rest alternate initiator, responder, initiator... in the transport phase,
 * numbered from counter 0 in each direction. The vectors follow the Noise spec, whose transport nonce is the counter
 * <i>little-endian</i> after 4 zero bytes; Tailscale's ts2021, and so {@link TransportCipher}, uses
 * <i>big-endian</i>. The two encodings agree only for counter 0 (all zeros), so the first transport message in each
 * direction must match exactly, and the second (counter 1) must not match ours but must match a little-endian nonce
 * with the same key, which shows the keys are right and only the nonce layout differs.
 */
class NoiseVectorsTest {

    private static final HexFormat HEX = HexFormat.of();

    record Message(String payload, String ciphertext) {
    }

    record Vector(String name, String prologue, String initiatorStatic, String initiatorEphemeral,
            String responderStatic, String responderEphemeral, String handshakeHash, List<Message> messages) {

        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Vector> vectors() {
        return Stream.of(
                new Vector("cacophony", "4a6f686e2047616c74",
                        "e61ef9919cde45dd5f82166404bd08e38bceb5dfdfded0a34c8df7ed542214d1",
                        "893e28b9dc6ca8d611ab664754b8ceb7bac5117349a4439a6b0569da977c464a",
                        "4a3acbfdb163dec651dfa3194dece676d437029c62a408b4c5ea9114246e4893",
                        "bbdb4cdbd309f1a1f2e1456967fe288cadd6f712d65dc7b7793d5e63da6b375b",
                        "48f3cb8bc9319da4ba1e9933991b1c4ed4034f1f126a76d3a1fbcfd7f94248d4",
                        List.of(
                                new Message("4c756477696720766f6e204d69736573",
                                        "ca35def5ae56cec33dc2036731ab14896bc4c75dbb07a61f879f8e3afa4c79440b03ddc7aa"
                                                + "c5123d06a1b23b71670e32e76c28239a7ca4ac8f784de7e44c1adbfc6e83fef7352a"
                                                + "58d9d56157400c0a737b1d171ce368229c7b752ac25b8faf4eca690f6d896f543be0"
                                                + "2c996ab2b86b76"),
                                new Message("4d757272617920526f746862617264",
                                        "95ebc60d2b1fa672c1f46a8aa265ef51bfe38e7ccb39ec5be34069f144808843d9b5a8927f"
                                                + "0ac9655ef76833bc7e5561f42e691ac8404efd6fbd6308b6a27c"),
                                new Message("462e20412e20486179656b",
                                        "2c256ed08fcd08c2980f954ee4beaccb61c9581340f5dd2fd1cf3b"),
                                new Message("4361726c204d656e676572",
                                        "d6033f70eee20945c7c9dba304e397ee3b284ff5e00fd9efb095d3"),
                                new Message("4a65616e2d426170746973746520536179",
                                        "a9c068ca5d8babf72560652d8e851adbfac35c8a66e810d560863173e96adf4cfe"),
                                new Message("457567656e2042f6686d20766f6e2042617765726b",
                                        "2a09d8f459e5927e40fdd2eddc99bdafb04e13a26f145cb5cfe9e6ba34c94331ebc17d5156"))),
                new Vector("snow",
                        "5468657265206973206e6f20726967687420616e642077726f6e672e2054686572652773206f6e6c792066756e"
                                + "20616e6420626f72696e672e",
                        "b7e117ce8ede06ceb89500799a3778d097fc54a3f90bea744493dfc24ec21f32",
                        "cc95b4ccc4912c5a52c8d2f6b808e13712392c4468f4e3f02a7d2d1590cb9178",
                        "e3187f5c10734e934be3a73c398c7fae07ba3e0cde2fcd9ab03a1c93dcae10f8",
                        "587f83fe736432043d2665fbd47b0506b2cd103b6ba8577f72e117c7ffeb5105",
                        null,
                        List.of(
                                new Message("910ef4a7c04090f66403fcd8ffaed066e70ed38b576792c4a554cc5016fe5120",
                                        "df44a475167152d3e4767b9ad5b28468fb8bd6aaa0b0e7181afd87ede7a8c971e818de301c"
                                                + "97393bfa71ac250becfc8acef64a969e039f407fe44c5ffc3d66d94ff57627ad4cc5"
                                                + "3882a1b2993babac3940edd1eaff34a3d3f08c53570166b3d29d06bd5de3cfb9b85b"
                                                + "66001a60a5bb98d72b80da9485655f86db72b46f745c4e"),
                                new Message("3ce1e4d6e5f02bfeea1d6620cbf1473b5f55372d6954e98d3e12b6ffd04879d5",
                                        "2818be348d38de5f9e3ef545c62e8e276c12e2a64410801a0284e02dfb0d450a848d100197"
                                                + "7ef31dfe04b5c824acc04c7bda8490eab6cb6aaa844c4ddf0fda83ec84ed26cd6bee"
                                                + "22fab17360b73de5b8"),
                                new Message("31e7554ebce419a76bf5cd464e00594ccf55bdc09c234c450850d26ab164238c",
                                        "89545eb9b2477d482156692214def7d5aecc00b9244b4435bdb768173841d2a2a2e52bcee3"
                                                + "2d64fe938c87594b17ee69"),
                                new Message("794f643ba08cc7ee7aa39bc055560a0850dbc77bf34d8ab22019bf160ab2c573",
                                        "fe35983c049b535cf9ca61cfad5b48e461da90c7c51cb5b873be10e58ae34a384aaebba7f9"
                                                + "6958b0ef0ac043c5e9c622"))));
    }

    @ParameterizedTest
    @MethodSource("vectors")
    void handshakeMatchesThePublishedVector(Vector vector) throws Exception {
        IkHandshake initiator = initiator(vector);
        IkHandshake responder = responder(vector);
        Message first = vector.messages().get(0);
        Message second = vector.messages().get(1);

        assertEquals(first.ciphertext(), HEX.formatHex(initiator.writeInitiation(HEX.parseHex(first.payload()))));
        assertEquals(first.payload(), HEX.formatHex(responder.readInitiation(HEX.parseHex(first.ciphertext()))));
        assertEquals(MachinePrivateKey.fromRaw(HEX.parseHex(vector.initiatorStatic())).publicKey(),
                responder.remoteStatic());

        assertEquals(second.ciphertext(), HEX.formatHex(responder.writeResponse(HEX.parseHex(second.payload()))));
        assertEquals(second.payload(), HEX.formatHex(initiator.readResponse(HEX.parseHex(second.ciphertext()))));

        IkHandshake.SessionKeys initiatorKeys = initiator.split();
        IkHandshake.SessionKeys responderKeys = responder.split();
        assertArrayEquals(initiatorKeys.initiatorToResponder(), responderKeys.initiatorToResponder());
        assertArrayEquals(initiatorKeys.responderToInitiator(), responderKeys.responderToInitiator());
        assertArrayEquals(initiatorKeys.handshakeHash(), responderKeys.handshakeHash());
        if (vector.handshakeHash() != null) {
            assertEquals(vector.handshakeHash(), HEX.formatHex(initiatorKeys.handshakeHash()));
        }
    }

    @ParameterizedTest
    @MethodSource("vectors")
    void transportMessagesMatchUntilTheNonceEncodingsDiverge(Vector vector) throws Exception {
        IkHandshake initiator = initiator(vector);
        IkHandshake responder = responder(vector);
        responder.readInitiation(initiator.writeInitiation(HEX.parseHex(vector.messages().get(0).payload())));
        initiator.readResponse(responder.writeResponse(HEX.parseHex(vector.messages().get(1).payload())));
        IkHandshake.SessionKeys keys = initiator.split();

        TransportCipher fromInitiator = new TransportCipher(keys.initiatorToResponder());
        TransportCipher fromResponder = new TransportCipher(keys.responderToInitiator());
        TransportCipher atResponder = new TransportCipher(keys.initiatorToResponder());
        List<Message> transport = vector.messages().subList(2, vector.messages().size());
        for (int i = 0; i < transport.size(); i++) {
            Message message = transport.get(i);
            boolean sentByInitiator = i % 2 == 0;
            long counter = i / 2;
            byte[] key = sentByInitiator ? keys.initiatorToResponder() : keys.responderToInitiator();
            byte[] ours = (sentByInitiator ? fromInitiator : fromResponder).seal(HEX.parseHex(message.payload()));
            if (counter == 0) {
                assertEquals(message.ciphertext(), HEX.formatHex(ours), "counter 0 encodes the same in both orders");
                if (sentByInitiator) {
                    assertEquals(message.payload(), HEX.formatHex(atResponder.open(ours)));
                }
            } else {
                assertNotEquals(message.ciphertext(), HEX.formatHex(ours), "big-endian nonce differs from Noise's");
                byte[] noiseSpec = ChaChaPoly.seal(key, littleEndianNonce(counter), new byte[0],
                        HEX.parseHex(message.payload()));
                assertEquals(message.ciphertext(), HEX.formatHex(noiseSpec), "same key, little-endian nonce");
            }
        }
        assertFalse(transport.isEmpty());
    }

    private static IkHandshake initiator(Vector vector) {
        return IkHandshake.initiator(HEX.parseHex(vector.prologue()),
                MachinePrivateKey.fromRaw(HEX.parseHex(vector.initiatorStatic())),
                MachinePrivateKey.fromRaw(HEX.parseHex(vector.initiatorEphemeral())),
                MachinePrivateKey.fromRaw(HEX.parseHex(vector.responderStatic())).publicKey());
    }

    private static IkHandshake responder(Vector vector) {
        return IkHandshake.responder(HEX.parseHex(vector.prologue()),
                MachinePrivateKey.fromRaw(HEX.parseHex(vector.responderStatic())),
                MachinePrivateKey.fromRaw(HEX.parseHex(vector.responderEphemeral())));
    }

    /** The Noise spec's nonce, for comparison only: 4 zero bytes, then the counter little-endian. */
    private static byte[] littleEndianNonce(long counter) {
        byte[] nonce = new byte[12];
        for (int i = 0; i < 8; i++) {
            nonce[4 + i] = (byte) (counter >>> (8 * i));
        }
        return nonce;
    }
}
