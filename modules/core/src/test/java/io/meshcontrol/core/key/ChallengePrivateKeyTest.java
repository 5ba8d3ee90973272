package io.meshcontrol.core.key;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import org.junit.jupiter.api.Test;

class ChallengePrivateKeyTest {

    @Test
    void publicHalfIsX25519OfThePrivateKey() throws Exception {
        ChallengePrivateKey challenge = ChallengePrivateKey.generate();
        assertArrayEquals(X25519.publicKey(challenge.bytes()), challenge.publicKey().bytes());
        assertEquals(ChallengePublicKey.PREFIX, challenge.publicKey().toText().substring(0, 8));
        // A client proves a node key by X25519 with it: both sides reach the same secret.
        NodePrivateKey node = NodePrivateKey.generate();
        assertArrayEquals(X25519.sharedSecret(node.bytes(), challenge.publicKey().bytes()),
                X25519.sharedSecret(challenge.bytes(), node.publicKey().bytes()));
    }

    @Test
    void everyConnectionGetsADifferentKeyAndTheTextNeverShowsIt() {
        ChallengePrivateKey one = ChallengePrivateKey.generate();
        assertNotEquals(one.publicKey(), ChallengePrivateKey.generate().publicKey());
        String hex = java.util.HexFormat.of().formatHex(one.bytes());
        assertFalse(one.toString().contains(hex));
        assertEquals("ChallengePrivateKey[public=" + one.publicKey().toText() + "]", one.toString());
    }
}
