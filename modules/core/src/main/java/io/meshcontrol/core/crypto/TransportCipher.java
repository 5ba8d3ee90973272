package io.meshcontrol.core.crypto;

import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import javax.crypto.AEADBadTagException;

/**
 * One direction of the transport phase: a ChaCha20-Poly1305 key and a 64-bit message counter, with empty associated
 * data.
 *
 * <p><b>The nonce is Tailscale's, not the Noise spec's.</b> Noise encodes the counter as 4 zero bytes followed by the
 * counter in little-endian order; Tailscale's {@code controlbase} puts it in <i>big-endian</i> order after the 4 zero
 * bytes. Counter 0 looks the same either way, so a stock Noise library completes the handshake and exchanges one record
 * in each direction, then fails from the second record on. Counter value 2^64 - 1 is never used: like Tailscale, a
 * direction that reaches it is exhausted.
 *
 * <p>Not thread-safe: each direction is driven by one thread at a time.
 */
final class TransportCipher {

    /** The counter value that may not be used: all 64 bits set (2^64 - 1 unsigned). */
    private static final long INVALID_COUNTER = -1L;
    private static final int COUNTER_OFFSET = 4;

    private final ChaChaPoly cipher;
    private final byte[] nonce = new byte[ChaChaPoly.NONCE_LENGTH];
    private long counter;
    private boolean broken;

    TransportCipher(byte[] key) {
        this(key, 0);
    }

    /** Starts at {@code counter} (an unsigned value); only tests start anywhere but 0. */
    TransportCipher(byte[] key, long counter) {
        this.cipher = new ChaChaPoly(key);
        this.counter = counter;
    }

    /** The 12-byte nonce for a counter value: 4 zero bytes, then the counter big-endian (Tailscale's choice). */
    static byte[] nonce(long counter) {
        byte[] nonce = new byte[ChaChaPoly.NONCE_LENGTH];
        ByteBuffer.wrap(nonce).putLong(COUNTER_OFFSET, counter);
        return nonce;
    }

    /** The counter the next message will use (unsigned). */
    long counter() {
        return counter;
    }

    /** Encrypts all remaining bytes of {@code plaintext} into {@code out} (plaintext length + 16 bytes). */
    void seal(ByteBuffer plaintext, ByteBuffer out) throws NoiseProtocolException {
        prepare();
        try {
            cipher.seal(nonce, plaintext, out);
        } catch (GeneralSecurityException e) {
            broken = true;
            throw new IllegalStateException("ChaCha20-Poly1305 encryption failed", e);
        }
    }

    /**
     * Decrypts and authenticates all remaining bytes of {@code ciphertext} into {@code out}. A failure leaves this
     * direction unusable: the peers' counters no longer agree, so nothing after it could be trusted.
     */
    void open(ByteBuffer ciphertext, ByteBuffer out) throws NoiseProtocolException {
        prepare();
        try {
            cipher.open(nonce, ciphertext, out);
        } catch (AEADBadTagException e) {
            broken = true;
            throw new NoiseProtocolException(NoiseProtocolException.Problem.DECRYPTION_FAILED,
                    "record " + Long.toUnsignedString(counter - 1) + " did not authenticate", e);
        } catch (GeneralSecurityException e) {
            broken = true;
            throw new IllegalStateException("ChaCha20-Poly1305 decryption failed", e);
        }
    }

    byte[] seal(byte[] plaintext) throws NoiseProtocolException {
        ByteBuffer out = ByteBuffer.allocate(plaintext.length + NoiseFrames.TAG_LENGTH);
        seal(ByteBuffer.wrap(plaintext), out);
        return out.array();
    }

    byte[] open(byte[] ciphertext) throws NoiseProtocolException {
        ByteBuffer out = ByteBuffer.allocate(Math.max(0, ciphertext.length - NoiseFrames.TAG_LENGTH));
        open(ByteBuffer.wrap(ciphertext), out);
        return out.array();
    }

    /** Checks the state, sets the nonce for the current counter and advances the counter. */
    private void prepare() throws NoiseProtocolException {
        if (broken) {
            throw new NoiseProtocolException(NoiseProtocolException.Problem.CONNECTION_BROKEN,
                    "this direction failed earlier and cannot be used");
        }
        if (counter == INVALID_COUNTER) {
            throw new NoiseProtocolException(NoiseProtocolException.Problem.CIPHER_EXHAUSTED,
                    "cipher exhausted: no nonces left for this key");
        }
        ByteBuffer.wrap(nonce).putLong(COUNTER_OFFSET, counter);
        counter++;
    }
}
