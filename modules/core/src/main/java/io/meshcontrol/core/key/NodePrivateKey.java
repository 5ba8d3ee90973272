package io.meshcontrol.core.key;

import java.security.SecureRandom;

/**
 * A node's private (WireGuard) key, text form {@code privkey:} like {@link MachinePrivateKey}. The server never holds
 * its nodes' private keys; this type exists for test clients and for keys the server itself uses as a node.
 */
public final class NodePrivateKey extends Curve25519Key {

    /** Prefix of the text form, shared with {@link MachinePrivateKey}. */
    public static final String PREFIX = "privkey:";

    private NodePrivateKey(byte[] raw) {
        super(raw);
    }

    /** A new random key. */
    public static NodePrivateKey generate() {
        return new NodePrivateKey(X25519.generatePrivateKey());
    }

    /** A new random key from the given source. */
    public static NodePrivateKey generate(SecureRandom random) {
        return new NodePrivateKey(X25519.generatePrivateKey(random));
    }

    /** Wraps 32 raw bytes (copied). */
    public static NodePrivateKey fromRaw(byte[] raw) {
        return new NodePrivateKey(raw);
    }

    /**
     * Parses the text form {@code privkey:<64 hex>}.
     *
     * @throws KeyFormatException naming a wrong prefix, a wrong length or a non-hex character
     */
    public static NodePrivateKey parse(String text) {
        return new NodePrivateKey(KeyText.parse(text, PREFIX));
    }

    /** The public half. */
    public NodePublicKey publicKey() {
        return NodePublicKey.fromRaw(X25519.publicKey(bytes()));
    }

    /** Never shows the key: use {@link #toText()} deliberately when it must be written out. */
    @Override
    public String toString() {
        return "NodePrivateKey[public=" + publicKey().toText() + "]";
    }

    @Override
    String prefix() {
        return PREFIX;
    }
}
