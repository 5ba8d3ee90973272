package io.meshcontrol.core.crypto;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.HexFormat;
import org.junit.jupiter.api.Test;

class TransportCipherTest {

    private static final HexFormat HEX = HexFormat.of();
    private static final byte[] KEY = HEX.parseHex("000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f");

    /**
     * Tailscale's nonce: 4 zero bytes and the counter big-endian. The Noise spec would put counter 1 at byte 4 and
     * counter 256 at byte 5; a stock Noise library therefore fails from the second record on.
     */
    @Test
    void nonceIsTheCounterBigEndianAfterFourZeroBytes() {
        assertEquals("000000000000000000000000", HEX.formatHex(TransportCipher.nonce(0)));
        assertEquals("000000000000000000000001", HEX.formatHex(TransportCipher.nonce(1)));
        assertEquals("000000000000000000000100", HEX.formatHex(TransportCipher.nonce(256)));
        assertEquals("00000000fffffffffffffffe", HEX.formatHex(TransportCipher.nonce(-2L)));
    }

    /** Each record uses exactly the nonce of its counter: checked against a one-shot cipher with that nonce. */
    @Test
    void sealUsesTheNonceOfEachCounterInTurn() throws Exception {
        TransportCipher cipher = new TransportCipher(KEY);
        byte[] plaintext = "record".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        for (long counter = 0; counter <= 300; counter++) {
            byte[] expected = ChaChaPoly.seal(KEY, TransportCipher.nonce(counter), new byte[0], plaintext);
            assertArrayEquals(expected, cipher.seal(plaintext), "counter " + counter);
        }
        assertEquals(301, cipher.counter());
    }

    @Test
    void openAcceptsRecordsInOrderOnly() throws Exception {
        TransportCipher sender = new TransportCipher(KEY);
        byte[] first = sender.seal(new byte[] {1});
        byte[] second = sender.seal(new byte[] {2});
        TransportCipher receiver = new TransportCipher(KEY);
        NoiseProtocolException e = assertThrows(NoiseProtocolException.class, () -> receiver.open(second));
        assertEquals(NoiseProtocolException.Problem.DECRYPTION_FAILED, e.problem());
        TransportCipher inOrder = new TransportCipher(KEY);
        assertArrayEquals(new byte[] {1}, inOrder.open(first));
        assertArrayEquals(new byte[] {2}, inOrder.open(second));
    }

    /** Counter 2^64 - 2 is the last usable one; 2^64 - 1 marks the key as exhausted, as in Tailscale's Conn. */
    @Test
    void directionIsExhaustedAfterTheLastNonce() throws Exception {
        TransportCipher sender = new TransportCipher(KEY, -2L);
        TransportCipher receiver = new TransportCipher(KEY, -2L);
        assertArrayEquals(new byte[] {7}, receiver.open(sender.seal(new byte[] {7})));

        NoiseProtocolException sealing = assertThrows(NoiseProtocolException.class,
                () -> sender.seal(new byte[] {8}));
        assertEquals(NoiseProtocolException.Problem.CIPHER_EXHAUSTED, sealing.problem());
        NoiseProtocolException opening = assertThrows(NoiseProtocolException.class,
                () -> receiver.open(new byte[17]));
        assertEquals(NoiseProtocolException.Problem.CIPHER_EXHAUSTED, opening.problem());
    }
}
