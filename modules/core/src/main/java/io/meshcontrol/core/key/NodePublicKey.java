package io.meshcontrol.core.key;

/**
 * A node's public key: its WireGuard key, also its DERP identity (text form {@code nodekey:}). The client sends the
 * zero key as {@code OldNodeKey} when it has no previous key.
 */
public final class NodePublicKey extends Curve25519Key {

    /** Prefix of the text form. */
    public static final String PREFIX = "nodekey:";
    /** The all-zero key. */
    public static final NodePublicKey ZERO = new NodePublicKey(new byte[LENGTH]);

    private NodePublicKey(byte[] raw) {
        super(raw);
    }

    /** Wraps 32 raw bytes (copied). */
    public static NodePublicKey fromRaw(byte[] raw) {
        return new NodePublicKey(raw);
    }

    /**
     * Parses the text form {@code nodekey:<64 hex>}.
     *
     * @throws KeyFormatException naming a wrong prefix, a wrong length or a non-hex character
     */
    public static NodePublicKey parse(String text) {
        return new NodePublicKey(KeyText.parse(text, PREFIX));
    }

    @Override
    String prefix() {
        return PREFIX;
    }
}
