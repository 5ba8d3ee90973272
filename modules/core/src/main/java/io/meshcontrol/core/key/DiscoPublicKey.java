package io.meshcontrol.core.key;

/**
 * A node's disco key, used for NAT traversal messages between peers (text form {@code discokey:}).
 */
public final class DiscoPublicKey extends Curve25519Key {

    /** Prefix of the text form. */
    public static final String PREFIX = "discokey:";
    /** The all-zero key. */
    public static final DiscoPublicKey ZERO = new DiscoPublicKey(new byte[LENGTH]);

    private DiscoPublicKey(byte[] raw) {
        super(raw);
    }

    /** Wraps 32 raw bytes (copied). */
    public static DiscoPublicKey fromRaw(byte[] raw) {
        return new DiscoPublicKey(raw);
    }

    /**
     * Parses the text form {@code discokey:<64 hex>}.
     *
     * @throws KeyFormatException naming a wrong prefix, a wrong length or a non-hex character
     */
    public static DiscoPublicKey parse(String text) {
        return new DiscoPublicKey(KeyText.parse(text, PREFIX));
    }

    @Override
    String prefix() {
        return PREFIX;
    }
}
