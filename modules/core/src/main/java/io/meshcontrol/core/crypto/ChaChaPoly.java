package io.meshcontrol.core.crypto;

import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.ShortBufferException;
import javax.crypto.spec.ChaCha20ParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * IETF ChaCha20-Poly1305 (RFC 8439, section 2.8) for one key: 12-byte nonce, 16-byte tag. The key stream is the JDK's
 * ChaCha20 (vectorised on x86); the tag is our {@link Poly1305}, twice as fast here as the one inside the JDK's AEAD.
 *
 * <p>The construction: ChaCha20 block 0 of the nonce gives the one-time Poly1305 key, blocks 1 on encrypt the
 * message, and the tag covers the associated data and the ciphertext, each zero-padded to 16 bytes, then both lengths.
 * A ciphertext is authenticated before any of it is decrypted.
 *
 * <p>Not thread-safe: each instance is driven by one thread at a time.
 */
final class ChaChaPoly {

    private static final String KEY_ALGORITHM = "ChaCha20";
    private static final int KEY_LENGTH = 32;
    static final int NONCE_LENGTH = 12;
    private static final int TAG_LENGTH = Poly1305.TAG_LENGTH;

    private static final byte[] NO_ASSOCIATED_DATA = new byte[0];
    private static final byte[] ZERO_BLOCK = new byte[64];

    private final SecretKeySpec key;
    private final Cipher chaCha20;
    private final Poly1305 poly1305 = new Poly1305();
    private final byte[] block0 = new byte[ZERO_BLOCK.length];
    private final byte[] tag = new byte[TAG_LENGTH];
    private final byte[] receivedTag = new byte[TAG_LENGTH];

    ChaChaPoly(byte[] key) {
        if (key.length != KEY_LENGTH) {
            throw new IllegalArgumentException("a ChaCha20-Poly1305 key has 32 bytes, got " + key.length);
        }
        this.key = new SecretKeySpec(key, KEY_ALGORITHM);
        try {
            this.chaCha20 = Cipher.getInstance("ChaCha20");
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("the JDK has no ChaCha20", e);
        }
    }

    static byte[] seal(byte[] key, byte[] nonce, byte[] associatedData, byte[] plaintext) {
        ByteBuffer out = ByteBuffer.allocate(plaintext.length + TAG_LENGTH);
        try {
            new ChaChaPoly(key).seal(nonce, associatedData, ByteBuffer.wrap(plaintext), out);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("ChaCha20-Poly1305 encryption failed", e);
        }
        return out.array();
    }

    static byte[] open(byte[] key, byte[] nonce, byte[] associatedData, byte[] ciphertext)
            throws AEADBadTagException {
        ByteBuffer out = ByteBuffer.allocate(Math.max(0, ciphertext.length - TAG_LENGTH));
        try {
            new ChaChaPoly(key).open(nonce, associatedData, ByteBuffer.wrap(ciphertext), out);
        } catch (AEADBadTagException e) {
            throw e;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("ChaCha20-Poly1305 decryption failed", e);
        }
        return out.array();
    }

    /** Encrypts all remaining bytes of {@code plaintext} into {@code out}, then the tag; both positions advance. */
    void seal(byte[] nonce, ByteBuffer plaintext, ByteBuffer out) throws GeneralSecurityException {
        seal(nonce, NO_ASSOCIATED_DATA, plaintext, out);
    }

    /**
     * Authenticates and decrypts all remaining bytes of {@code ciphertext} (the tag last) into {@code out}; both
     * positions advance. Nothing is written to {@code out} when the tag does not match.
     */
    void open(byte[] nonce, ByteBuffer ciphertext, ByteBuffer out) throws GeneralSecurityException {
        open(nonce, NO_ASSOCIATED_DATA, ciphertext, out);
    }

    private void seal(byte[] nonce, byte[] associatedData, ByteBuffer plaintext, ByteBuffer out)
            throws GeneralSecurityException {
        int length = plaintext.remaining();
        if (out.remaining() < length + TAG_LENGTH) {
            throw new ShortBufferException("sealing " + length + " bytes needs " + (length + TAG_LENGTH)
                    + " bytes of room, got " + out.remaining());
        }
        startMessage(Cipher.ENCRYPT_MODE, nonce);
        int ciphertextAt = out.position();
        chaCha20.doFinal(plaintext, out);
        authenticate(associatedData, out, ciphertextAt, length);
        out.put(tag);
    }

    private void open(byte[] nonce, byte[] associatedData, ByteBuffer ciphertext, ByteBuffer out)
            throws GeneralSecurityException {
        int length = ciphertext.remaining() - TAG_LENGTH;
        if (length < 0) {
            throw new AEADBadTagException("a ciphertext of " + ciphertext.remaining()
                    + " bytes is shorter than its 16-byte tag");
        }
        if (out.remaining() < length) {
            throw new ShortBufferException("opening " + length + " bytes needs as much room, got " + out.remaining());
        }
        startMessage(Cipher.DECRYPT_MODE, nonce);
        int ciphertextAt = ciphertext.position();
        authenticate(associatedData, ciphertext, ciphertextAt, length);
        ciphertext.get(ciphertextAt + length, receivedTag);
        if (!MessageDigest.isEqual(tag, receivedTag)) {
            throw new AEADBadTagException("Tag mismatch");
        }
        chaCha20.doFinal(ciphertext.slice(ciphertextAt, length), out);
        ciphertext.position(ciphertextAt + length + TAG_LENGTH);
    }

    /** Sets the nonce and takes ChaCha20 block 0 as the Poly1305 key; the cipher then continues at block 1. */
    private void startMessage(int mode, byte[] nonce) throws GeneralSecurityException {
        chaCha20.init(mode, key, new ChaCha20ParameterSpec(nonce, 0));
        chaCha20.update(ZERO_BLOCK, 0, ZERO_BLOCK.length, block0, 0);
        poly1305.start(block0);
    }

    /** The tag of the associated data and {@code length} ciphertext bytes at {@code from}, into {@link #tag}. */
    private void authenticate(byte[] associatedData, ByteBuffer ciphertext, int from, int length) {
        poly1305.absorbPadded(associatedData);
        poly1305.absorbPadded(ciphertext, from, length);
        poly1305.absorbLengths(associatedData.length, length);
        poly1305.finish(tag);
    }
}
