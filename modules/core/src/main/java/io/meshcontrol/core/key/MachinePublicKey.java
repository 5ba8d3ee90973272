package io.meshcontrol.core.key;

/**
 * A machine's public key: the Noise static key of a Tailscale client or of this control server (text form
 * {@code mkey:}).
 */
public final class MachinePublicKey extends Curve25519Key {

    /** Prefix of the text form. */
    public static final String PREFIX = "mkey:";
    /** The all-zero key, sent as the legacy key in {@code /key} answers. */
    public static final MachinePublicKey ZERO = new MachinePublicKey(new byte[LENGTH]);

    private MachinePublicKey(byte[] raw) {
        super(raw);
    }

    /** Wraps 32 raw bytes (copied). */
    public static MachinePublicKey fromRaw(byte[] raw) {
        return new MachinePublicKey(raw);
    }

    /**
     * Parses the text form {@code mkey:<64 hex>}.
     *
     * @throws KeyFormatException naming a wrong prefix, a wrong length or a non-hex character
     */
    public static MachinePublicKey parse(String text) {
        return new MachinePublicKey(KeyText.parse(text, PREFIX));
    }

    @Override
    String prefix() {
        return PREFIX;
    }
}
