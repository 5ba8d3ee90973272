package io.meshcontrol.core.key;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.security.InvalidKeyException;
import java.security.SecureRandom;
import java.util.HexFormat;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

class X25519Test {

    private static final HexFormat HEX = HexFormat.of();

    /** RFC 7748 section 5.2; the second u-coordinate has its top bit set, which X25519 must ignore. */
    @ParameterizedTest
    @CsvSource({
        "a546e36bf0527c9d3b16154b82465edd62144c0ac1fc5a18506a2244ba449ac4,"
                + "e6db6867583030db3594c1a424b15f7c726624ec26b3353b10a903a6d0ab1c4c,"
                + "c3da55379de9c6908e94ea4df28d084f32eccf03491c71f754b4075577a28552",
        "4b66e9d4d1b4673c5ad22691957d6af5c11b6421e0ea01d42ca4169e7918ba0d,"
                + "e5210f12786811d3f4b7959d0538ae2c31dbe7106fc03c3efc4cd549c715a493,"
                + "95cbde9476e8907d7aade45cb4b873f88b595a68799fa152e6f8f7647aac7957"
    })
    void scalarMultiplicationMatchesRfc7748Vectors(String scalar, String u, String expected) throws Exception {
        assertEquals(expected, HEX.formatHex(X25519.sharedSecret(HEX.parseHex(scalar), HEX.parseHex(u))));
    }

    /** RFC 7748 section 6.1: both public keys and the shared secret, computed from either side. */
    @Test
    void diffieHellmanMatchesRfc7748Section6() throws Exception {
        byte[] alicePrivate = HEX.parseHex("77076d0a7318a57d3c16c17251b26645df4c2f87ebc0992ab177fba51db92c2a");
        byte[] bobPrivate = HEX.parseHex("5dab087e624a8a4b79e17f8b83800ee66f3bb1292618b6fd1c2f8b27ff88e0eb");
        byte[] alicePublic = X25519.publicKey(alicePrivate);
        byte[] bobPublic = X25519.publicKey(bobPrivate);
        assertEquals("8520f0098930a754748b7ddcb43ef75a0dbf3a0d26381af4eba4a98eaa9b4e6a", HEX.formatHex(alicePublic));
        assertEquals("de9edb7d7b7dc1b4d35b61c2ece435373f8343c85b78674dadfc7e146f882b4f", HEX.formatHex(bobPublic));
        String shared = "4a5d9d5ba4ce2de1728e3bf480350f25e07e21c947d19e3376f09b3c1e161742";
        assertEquals(shared, HEX.formatHex(X25519.sharedSecret(alicePrivate, bobPublic)));
        assertEquals(shared, HEX.formatHex(X25519.sharedSecret(bobPrivate, alicePublic)));
    }

    @Test
    void lowOrderPublicKeyIsRefused() {
        byte[] privateKey = X25519.generatePrivateKey();
        assertThrows(InvalidKeyException.class, () -> X25519.sharedSecret(privateKey, new byte[32]));
        byte[] one = new byte[32];
        one[0] = 1;
        assertThrows(InvalidKeyException.class, () -> X25519.sharedSecret(privateKey, one));
    }

    @Test
    void generatedPrivateKeysAreClamped() {
        SecureRandom random = new SecureRandom();
        for (int i = 0; i < 50; i++) {
            byte[] key = X25519.generatePrivateKey(random);
            assertEquals(0, key[0] & 7);
            assertEquals(0x40, key[31] & 0xc0);
        }
    }

    @Test
    void machineKeyPublicHalfIsX25519OfTheBasePoint() {
        byte[] raw = HEX.parseHex("77076d0a7318a57d3c16c17251b26645df4c2f87ebc0992ab177fba51db92c2a");
        assertArrayEquals(X25519.publicKey(raw), MachinePrivateKey.fromRaw(raw).publicKey().bytes());
        assertArrayEquals(X25519.publicKey(raw), NodePrivateKey.fromRaw(raw).publicKey().bytes());
    }
}
