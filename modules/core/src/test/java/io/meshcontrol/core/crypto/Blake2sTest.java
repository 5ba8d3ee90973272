package io.meshcontrol.core.crypto;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

class Blake2sTest {

    private static final HexFormat HEX = HexFormat.of();

    /** RFC 7693 appendix B. */
    @Test
    void hashOfAbcMatchesRfc7693() {
        assertEquals("508c5e8c327c14e2e1a72ba34eeb452f37458b209ed63a294d999b4c86675982",
                HEX.formatHex(Blake2s.hash("abc".getBytes(StandardCharsets.US_ASCII))));
    }

    @Test
    void hashOfPartsEqualsHashOfTheirConcatenation() {
        assertEquals(HEX.formatHex(Blake2s.hash("abc".getBytes(StandardCharsets.US_ASCII))),
                HEX.formatHex(Blake2s.hash(new byte[] {'a'}, new byte[0], new byte[] {'b', 'c'})));
    }

    /**
     * Expected values from CPython: {@code hmac.new(key, msg, hashlib.blake2s).hexdigest()}, an independent HMAC over
     * BLAKE2s with its 64-byte block. The second case has a key longer than the block, which HMAC hashes first.
     */
    @Test
    void hmacMatchesAnIndependentImplementation() {
        assertEquals("f93215bb90d4af4c3061cd932fb169fb8bb8a91d0b4022baea1271e1323cd9a0",
                HEX.formatHex(Blake2s.hmac("key".getBytes(StandardCharsets.US_ASCII),
                        "The quick brown fox jumps over the lazy dog".getBytes(StandardCharsets.US_ASCII))));
        byte[] longKey = new byte[100];
        for (int i = 0; i < longKey.length; i++) {
            longKey[i] = (byte) i;
        }
        assertEquals("834cd67f8ca0de35dfcdfff1510ae170f5850f5455aba1c085196c441d7ca7d9",
                HEX.formatHex(Blake2s.hmac(longKey, "x".repeat(200).getBytes(StandardCharsets.US_ASCII))));
    }

    /** Expected values from CPython, computing Noise's HKDF step by step with hmac and hashlib.blake2s. */
    @Test
    void hkdfMatchesTheNoiseDefinition() {
        byte[] inputKeyMaterial = new byte[32];
        for (int i = 0; i < inputKeyMaterial.length; i++) {
            inputKeyMaterial[i] = (byte) i;
        }
        byte[][] outputs = Blake2s.hkdf(new byte[32], inputKeyMaterial);
        assertEquals("d36c68692b681300676744097a482d8e0161a95bc9ed309b17bd78eafa8c49ae", HEX.formatHex(outputs[0]));
        assertEquals("d1c083372bc55d11d5b9173caae8f0322d1de371ec5cb4d7ee1b24b682e21202", HEX.formatHex(outputs[1]));
    }
}
