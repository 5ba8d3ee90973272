package io.meshcontrol.core.key;

import java.security.MessageDigest;
import java.util.Arrays;
import java.util.Base64;

/**
 * 32 raw bytes of a Curve25519 key with a typed text form ({@code prefix:<64 hex>}). Keys of different types never
 * compare equal, even with the same bytes: a machine key is not a node key. Instances are immutable.
 */
public abstract sealed class Curve25519Key
        permits MachinePublicKey, MachinePrivateKey, NodePublicKey, NodePrivateKey, DiscoPublicKey,
        ChallengePublicKey {

    /** Raw key length in bytes. */
    public static final int LENGTH = 32;

    private final byte[] raw;

    Curve25519Key(byte[] raw) {
        if (raw.length != LENGTH) {
            throw new IllegalArgumentException("a key has " + LENGTH + " bytes, got " + raw.length);
        }
        this.raw = raw.clone();
    }

    /** The type prefix of the text form, colon included. */
    abstract String prefix();

    /** A copy of the raw bytes. */
    public final byte[] bytes() {
        return raw.clone();
    }

    /** Whether this is the all-zero key, which the protocol uses for "no key". */
    public final boolean isZero() {
        int bits = 0;
        for (byte b : raw) {
            bits |= b;
        }
        return bits == 0;
    }

    /** The text form, {@code prefix:<64 lowercase hex>}; the same for the zero key. */
    public final String toText() {
        return KeyText.format(prefix(), raw);
    }

    /**
     * Tailscale's log form: the first five base64 characters in brackets, or empty for the zero key. Never use it to
     * identify a key, only to make logs readable.
     */
    public final String shortString() {
        if (isZero()) {
            return "";
        }
        return "[" + Base64.getEncoder().encodeToString(raw).substring(0, 5) + "]";
    }

    @Override
    public final boolean equals(Object other) {
        return other != null && other.getClass() == getClass()
                && MessageDigest.isEqual(raw, ((Curve25519Key) other).raw);
    }

    @Override
    public final int hashCode() {
        return getClass().hashCode() * 31 + Arrays.hashCode(raw);
    }

    /** Public keys show their text form; private keys override this to hide themselves. */
    @Override
    public String toString() {
        return toText();
    }
}
