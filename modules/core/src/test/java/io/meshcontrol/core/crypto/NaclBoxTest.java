package io.meshcontrol.core.crypto;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.meshcontrol.core.key.X25519;
import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

class NaclBoxTest {

    private static final HexFormat HEX = HexFormat.of();
    // Produced by golang.org/x/crypto/nacl/box.Seal (the library Tailscale's key.NodePrivate.SealTo uses).
    private static final byte[] SERVER_PRIVATE = HEX.parseHex("01080f161d242b323940474e555c636a71787f868d949ba2a9b0b7bec5ccd3da");
    private static final byte[] SERVER_PUBLIC = HEX.parseHex("c8feca81be196cdf2cadeabf13c4903d7632dce4955aa68b6e5d9adef54e2616");
    private static final byte[] CLIENT_PRIVATE = HEX.parseHex("646b727980878e959ca3aab1b8bfc6cdd4dbe2e9f0f7fe050c131a21282f363d");
    private static final byte[] CLIENT_PUBLIC = HEX.parseHex("a2ce93c64b85e78a62d23d888e41770269b04dc5565edd1db54030ae3781ef6e");
    private static final byte[] NONCE = HEX.parseHex("323940474e555c636a71787f868d949ba2a9b0b7bec5ccd3");
    private static final byte[] MESSAGE = "{\"version\":2,\"CanAckPings\":true}".getBytes(StandardCharsets.UTF_8);
    private static final byte[] SEALED = HEX.parseHex("de17ab65b0e2121bc8050effad61bda775f1c8dc26c54c990ea40dd5bd3beb9c"
            + "570215597191b11a0f204d5a15fa3598");

    @Test
    void sealMatchesGoNaclBox() throws Exception {
        assertArrayEquals(SERVER_PUBLIC, X25519.publicKey(SERVER_PRIVATE));
        assertArrayEquals(CLIENT_PUBLIC, X25519.publicKey(CLIENT_PRIVATE));
        assertArrayEquals(SEALED, NaclBox.seal(MESSAGE, NONCE, SERVER_PUBLIC, CLIENT_PRIVATE));
    }

    @Test
    void openReadsWhatGoSealed() throws Exception {
        assertArrayEquals(MESSAGE, NaclBox.open(SEALED, NONCE, CLIENT_PUBLIC, SERVER_PRIVATE));
    }

    @Test
    void hsalsa20MatchesNaclTestVector() {
        // NaCl's tests/core1.c: HSalsa20 of the RFC 7748 Alice/Bob shared secret with a zero input.
        byte[] shared = HEX.parseHex("4a5d9d5ba4ce2de1728e3bf480350f25e07e21c947d19e3376f09b3c1e161742");
        assertEquals("1b27556473e985d462cd51197a9a46c76009549eac6474f206c4ee0844f68389",
                HEX.formatHex(NaclBox.hsalsa20(shared, new byte[16])));
    }

    @Test
    void tamperedBoxDoesNotOpen() {
        byte[] tampered = SEALED.clone();
        tampered[tampered.length - 1] ^= 1;
        assertThrows(InvalidKeyException.class, () -> NaclBox.open(tampered, NONCE, CLIENT_PUBLIC, SERVER_PRIVATE));
        assertThrows(InvalidKeyException.class, () -> NaclBox.open(new byte[5], NONCE, CLIENT_PUBLIC, SERVER_PRIVATE));
    }
}
