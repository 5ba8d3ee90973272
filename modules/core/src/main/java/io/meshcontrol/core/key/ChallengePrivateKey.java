package io.meshcontrol.core.key;

/**
 * The private half of a per-connection challenge key. The server makes one for each ts2021 connection and sends the
 * public half in the early payload; a client can later prove it holds a node key by sealing something to it.
 *
 * <p>Ephemeral by design, as in Tailscale ({@code key.ChallengePrivate} refuses to be marshalled): it has no text
 * form, is never stored and never leaves the process. It lives as long as the connection that sent its public half.
 */
public final class ChallengePrivateKey {

    private final byte[] raw;
    private final ChallengePublicKey publicKey;

    private ChallengePrivateKey(byte[] raw) {
        this.raw = raw;
        this.publicKey = ChallengePublicKey.fromRaw(X25519.publicKey(raw));
    }

    /** A new random key. */
    public static ChallengePrivateKey generate() {
        return new ChallengePrivateKey(X25519.generatePrivateKey());
    }

    /** The public half, sent to the client as {@code chalpub:<hex>}. */
    public ChallengePublicKey publicKey() {
        return publicKey;
    }

    /** A copy of the 32 raw bytes, for X25519 with a client's node key. */
    public byte[] bytes() {
        return raw.clone();
    }

    /** Never shows the key. */
    @Override
    public String toString() {
        return "ChallengePrivateKey[public=" + publicKey.toText() + "]";
    }
}
