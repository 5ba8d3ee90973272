package io.meshcontrol.core.key;

/**
 * A per-connection challenge key that the server may send in the ts2021 early payload (text form {@code chalpub:}).
 */
public final class ChallengePublicKey extends Curve25519Key {

    /** Prefix of the text form. */
    public static final String PREFIX = "chalpub:";
    /** The all-zero key. */
    public static final ChallengePublicKey ZERO = new ChallengePublicKey(new byte[LENGTH]);

    private ChallengePublicKey(byte[] raw) {
        super(raw);
    }

    /** Wraps 32 raw bytes (copied). */
    public static ChallengePublicKey fromRaw(byte[] raw) {
        return new ChallengePublicKey(raw);
    }

    /**
     * Parses the text form {@code chalpub:<64 hex>}.
     *
     * @throws KeyFormatException naming a wrong prefix, a wrong length or a non-hex character
     */
    public static ChallengePublicKey parse(String text) {
        return new ChallengePublicKey(KeyText.parse(text, PREFIX));
    }

    @Override
    String prefix() {
        return PREFIX;
    }
}
