package io.meshcontrol.core.key;

import java.security.InvalidKeyException;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;

/**
 * The X25519 function (RFC 7748) over raw 32-byte keys, on BouncyCastle's field arithmetic. The JDK's {@code XDH}
 * works through key objects and a slower generic field; a mass reconnect does several of these per Noise handshake,
 * and with the JDK's they were about a seventh of the server's CPU (docs/performance.md).
 */
public final class X25519 {

    /**
     * Key generation's randomness: several generators, each thread drawing from one chosen by its id. One shared
     * {@link SecureRandom} is safe but has one lock, and in a mass reconnect thousands of handshakes at once each
     * need an ephemeral key: threads spinning on that lock were 5% of the server's time.
     */
    private static final SecureRandom[] RANDOMS = randoms(8);

    private X25519() {
    }

    /** A new random private key from the process's own {@link SecureRandom}s, clamped as below. */
    public static byte[] generatePrivateKey() {
        return generatePrivateKey(RANDOMS[(int) (Thread.currentThread().threadId() & (RANDOMS.length - 1))]);
    }

    private static SecureRandom[] randoms(int count) {
        SecureRandom[] randoms = new SecureRandom[count];
        try {
            for (int i = 0; i < count; i++) {
                // DRBG: each instance has its own state and lock (NativePRNG instances share one), seeded by the system
                randoms[i] = SecureRandom.getInstance("DRBG");
            }
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK has no DRBG", e);
        }
        return randoms;
    }

    /**
     * A new random private key, clamped as RFC 7748 decodes it. Tailscale clamps its generated machine and node keys;
     * doing the same keeps our keys byte-identical to what X25519 actually uses.
     */
    public static byte[] generatePrivateKey(SecureRandom random) {
        byte[] raw = new byte[Curve25519Key.LENGTH];
        random.nextBytes(raw);
        raw[0] &= (byte) 248;
        raw[31] = (byte) ((raw[31] & 127) | 64);
        return raw;
    }

    /** The public key (X25519 with the base point) of a raw private key. */
    public static byte[] publicKey(byte[] privateKey) {
        check(privateKey, "private");
        byte[] result = new byte[Curve25519Key.LENGTH];
        org.bouncycastle.math.ec.rfc7748.X25519.scalarMultBase(privateKey, 0, result, 0);
        return result;
    }

    /**
     * X25519(privateKey, publicKey).
     *
     * @throws InvalidKeyException when the result is all zeros, i.e. the public key is a low-order point; Noise and
     *                             Tailscale's Go code refuse such a result, and so do we
     */
    public static byte[] sharedSecret(byte[] privateKey, byte[] publicKey) throws InvalidKeyException {
        check(privateKey, "private");
        check(publicKey, "public");
        byte[] secret = new byte[Curve25519Key.LENGTH];
        // Decoding the u-coordinate ignores its top bit, as RFC 7748 section 5 requires; false means an all-zero
        // result (a low-order point), which Noise and Tailscale's Go code refuse, and so do we.
        if (!org.bouncycastle.math.ec.rfc7748.X25519.calculateAgreement(privateKey, 0, publicKey, 0, secret, 0)) {
            throw new InvalidKeyException("X25519 result is zero: the public key is a low-order point");
        }
        return secret;
    }

    private static void check(byte[] key, String which) {
        if (key.length != Curve25519Key.LENGTH) {
            throw new IllegalArgumentException("an X25519 " + which + " key has " + Curve25519Key.LENGTH
                    + " bytes, got " + key.length);
        }
    }

}
