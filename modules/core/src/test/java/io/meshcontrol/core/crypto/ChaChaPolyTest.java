package io.meshcontrol.core.crypto;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Random;
import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

class ChaChaPolyTest {

    private static final HexFormat HEX = HexFormat.of();

    /** RFC 8439, section 2.8.2: the AEAD's example, with associated data. */
    @Test
    void sealsTheRfcExample() throws Exception {
        byte[] key = HEX.parseHex("808182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9f");
        byte[] nonce = HEX.parseHex("070000004041424344454647");
        byte[] associatedData = HEX.parseHex("50515253c0c1c2c3c4c5c6c7");
        byte[] plaintext = ("Ladies and Gentlemen of the class of '99: If I could offer you only one tip for the future,"
                + " sunscreen would be it.").getBytes(StandardCharsets.US_ASCII);

        byte[] sealed = ChaChaPoly.seal(key, nonce, associatedData, plaintext);

        assertEquals("d31a8d34648e60db7b86afbc53ef7ec2a4aded51296e08fea9e2b5a736ee62d63dbea45e8ca9671282fafb69da92728b"
                + "1a71de0a9e060b2905d6a5b67ecd3b3692ddbd7f2d778b8c9803aee328091b58fab324e4fad675945585808b4831d7bc3ff4"
                + "def08e4b7a9de576d26586cec64b6116", HEX.formatHex(Arrays.copyOf(sealed, plaintext.length)));
        assertEquals("1ae10b594f09e26a7e902ecbd0600691",
                HEX.formatHex(Arrays.copyOfRange(sealed, plaintext.length, sealed.length)));
        assertArrayEquals(plaintext, ChaChaPoly.open(key, nonce, associatedData, sealed));
    }

    /**
     * RFC 8439, appendix A.3, the vectors of whole blocks: keys and messages that drive the accumulator to the edges of
     * the field (h just below, at and above 2^130 - 5), where a wrong final reduction shows.
     */
    @ParameterizedTest
    @CsvSource({
        "0000000000000000000000000000000000000000000000000000000000000000,"
                + "0000000000000000000000000000000000000000000000000000000000000000"
                + "0000000000000000000000000000000000000000000000000000000000000000,"
                + "00000000000000000000000000000000",
        "0200000000000000000000000000000000000000000000000000000000000000,"
                + "ffffffffffffffffffffffffffffffff, 03000000000000000000000000000000",
        "02000000000000000000000000000000ffffffffffffffffffffffffffffffff,"
                + "02000000000000000000000000000000, 03000000000000000000000000000000",
        "0100000000000000000000000000000000000000000000000000000000000000,"
                + "fffffffffffffffffffffffffffffffff0ffffffffffffffffffffffffffffff11000000000000000000000000000000,"
                + "05000000000000000000000000000000",
        "0100000000000000000000000000000000000000000000000000000000000000,"
                + "fffffffffffffffffffffffffffffffffbfefefefefefefefefefefefefefefe01010101010101010101010101010101,"
                + "00000000000000000000000000000000",
        "0200000000000000000000000000000000000000000000000000000000000000,"
                + "fdffffffffffffffffffffffffffffff, faffffffffffffffffffffffffffffff",
        "0100000000000000040000000000000000000000000000000000000000000000,"
                + "e33594d7505e43b900000000000000003394d7505e4379cd01000000000000000000000000000000000000000000000001"
                + "000000000000000000000000000000, 14000000000000005500000000000000",
        "0100000000000000040000000000000000000000000000000000000000000000,"
                + "e33594d7505e43b900000000000000003394d7505e4379cd010000000000000000000000000000000000000000000000,"
                + "13000000000000000000000000000000",
    })
    void poly1305MatchesTheRfcVectorsAtTheEdgesOfTheField(String key, String message, String tag) {
        Poly1305 poly1305 = new Poly1305();
        poly1305.start(HEX.parseHex(key));
        poly1305.absorbPadded(HEX.parseHex(message));
        byte[] computed = new byte[Poly1305.TAG_LENGTH];
        poly1305.finish(computed);
        assertEquals(tag, HEX.formatHex(computed));
    }

    /**
     * Against the JDK's own ChaCha20-Poly1305 on every length across several blocks and records, with random and
     * all-ones keys and messages (all-ones keeps the accumulator near its largest values).
     */
    @Test
    void agreesWithTheJdkAeadInBothDirections() throws Exception {
        Random random = new Random(8439);
        Cipher jdk = Cipher.getInstance("ChaCha20-Poly1305");
        for (int round = 0; round < 1_500; round++) {
            boolean allOnes = round % 5 == 0;
            byte[] key = bytes(random, 32, allOnes);
            byte[] nonce = bytes(random, 12, false);
            byte[] associatedData = bytes(random, round % 3 == 0 ? 0 : random.nextInt(40), allOnes);
            int length = round < 300 ? round : random.nextInt(NoiseFrames.MAX_PLAINTEXT_LENGTH + 1);
            byte[] plaintext = bytes(random, length, allOnes);

            jdk.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(key, "ChaCha20"), new IvParameterSpec(nonce));
            jdk.updateAAD(associatedData);
            byte[] expected = jdk.doFinal(plaintext);

            assertArrayEquals(expected, ChaChaPoly.seal(key, nonce, associatedData, plaintext), "length " + length);
            assertArrayEquals(plaintext, ChaChaPoly.open(key, nonce, associatedData, expected), "length " + length);
        }
    }

    /** Direct buffers at offsets, as a conduit hands them over; positions advance past what was used. */
    @Test
    void sealsAndOpensDirectBuffersAtTheirPositions() throws Exception {
        byte[] key = bytes(new Random(1), 32, false);
        byte[] nonce = TransportCipher.nonce(42);
        byte[] plaintext = "a map response, in part".getBytes(StandardCharsets.US_ASCII);
        ByteBuffer in = ByteBuffer.allocateDirect(64).position(5);
        in.put(plaintext).flip().position(5);
        ByteBuffer sealed = ByteBuffer.allocateDirect(100).position(7);

        new ChaChaPoly(key).seal(nonce, in, sealed);

        assertEquals(in.limit(), in.position());
        assertEquals(7 + plaintext.length + 16, sealed.position());
        byte[] sealedBytes = new byte[plaintext.length + 16];
        sealed.get(7, sealedBytes);
        assertArrayEquals(ChaChaPoly.seal(key, nonce, new byte[0], plaintext), sealedBytes);

        ByteBuffer opened = ByteBuffer.allocateDirect(plaintext.length);
        new ChaChaPoly(key).open(nonce, sealed.flip().position(7), opened);
        assertEquals(sealed.limit(), sealed.position());
        byte[] openedBytes = new byte[plaintext.length];
        opened.get(0, openedBytes);
        assertArrayEquals(plaintext, openedBytes);
    }

    /** Any changed bit, in the ciphertext or the tag, fails the tag; nothing is decrypted into the output then. */
    @Test
    void everyFlippedBitIsRejectedBeforeDecrypting() {
        byte[] key = bytes(new Random(2), 32, false);
        byte[] nonce = TransportCipher.nonce(7);
        byte[] sealed = ChaChaPoly.seal(key, nonce, new byte[0], "twenty bytes of text".getBytes(StandardCharsets.US_ASCII));
        ChaChaPoly cipher = new ChaChaPoly(key);
        for (int bit = 0; bit < sealed.length * 8; bit++) {
            byte[] tampered = sealed.clone();
            tampered[bit / 8] ^= (byte) (1 << (bit % 8));
            ByteBuffer out = ByteBuffer.allocate(sealed.length);
            assertThrows(AEADBadTagException.class, () -> cipher.open(nonce, ByteBuffer.wrap(tampered), out));
            assertEquals(0, out.position(), "bit " + bit);
        }
        assertThrows(AEADBadTagException.class, () -> ChaChaPoly.open(key, nonce, new byte[0], new byte[15]));
    }

    private static byte[] bytes(Random random, int length, boolean allOnes) {
        byte[] bytes = new byte[length];
        if (allOnes) {
            Arrays.fill(bytes, (byte) 0xff);
        } else {
            random.nextBytes(bytes);
        }
        return bytes;
    }
}
