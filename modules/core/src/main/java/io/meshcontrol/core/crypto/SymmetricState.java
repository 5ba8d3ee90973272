package io.meshcontrol.core.crypto;

import javax.crypto.AEADBadTagException;

/**
 * Noise's SymmetricState for this one instantiation: the handshake hash {@code h} and chaining key {@code ck}.
 *
 * <p>Each MixKey yields a fresh cipher key that IK uses for at most one encryption, so handshake encryptions always
 * use nonce 0 (which is why Tailscale's variant, with its big-endian transport nonce, still matches the standard
 * test vectors here). The key is handed back to the caller instead of being kept as a CipherState, as in Tailscale's
 * own code.
 */
final class SymmetricState {

    private static final byte[] ZERO_NONCE = new byte[ChaChaPoly.NONCE_LENGTH];
    private static final byte[] EMPTY = new byte[0];

    private byte[] h;
    private byte[] ck;

    /** InitializeSymmetric: a name of at most 32 bytes is zero-padded, a longer one hashed (ours has 33 bytes). */
    SymmetricState(byte[] protocolName) {
        if (protocolName.length <= Blake2s.LENGTH) {
            h = new byte[Blake2s.LENGTH];
            System.arraycopy(protocolName, 0, h, 0, protocolName.length);
        } else {
            h = Blake2s.hash(protocolName);
        }
        ck = h.clone();
    }

    void mixHash(byte[] data) {
        h = Blake2s.hash(h, data);
    }

    /** MixKey: advances the chaining key and returns the new cipher key. */
    byte[] mixKey(byte[] inputKeyMaterial) {
        byte[][] outputs = Blake2s.hkdf(ck, inputKeyMaterial);
        ck = outputs[0];
        return outputs[1];
    }

    /** EncryptAndHash with nonce 0 and the handshake hash as associated data. */
    byte[] encryptAndHash(byte[] key, byte[] plaintext) {
        byte[] ciphertext = ChaChaPoly.seal(key, ZERO_NONCE, h, plaintext);
        mixHash(ciphertext);
        return ciphertext;
    }

    /** DecryptAndHash; on failure the state is left as it was and must be discarded. */
    byte[] decryptAndHash(byte[] key, byte[] ciphertext) throws AEADBadTagException {
        byte[] plaintext = ChaChaPoly.open(key, ZERO_NONCE, h, ciphertext);
        mixHash(ciphertext);
        return plaintext;
    }

    /** Split: the initiator-to-responder key, then the responder-to-initiator key. */
    byte[][] split() {
        return Blake2s.hkdf(ck, EMPTY);
    }

    byte[] handshakeHash() {
        return h.clone();
    }
}
