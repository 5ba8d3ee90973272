package io.meshcontrol.core.key;

import java.math.BigInteger;
import java.security.GeneralSecurityException;
import java.security.InvalidKeyException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.spec.NamedParameterSpec;
import java.security.spec.XECPrivateKeySpec;
import java.security.spec.XECPublicKeySpec;
import javax.crypto.KeyAgreement;

/**
 * The X25519 function (RFC 7748) over raw 32-byte keys, on the JDK's {@code XDH} implementation. The JDK works with
 * key objects; the conversions from and to the raw little-endian encodings live here.
 */
public final class X25519 {

    /** The u-coordinate of the Curve25519 base point; X25519(k, 9) is the public key of k. */
    private static final byte[] BASE_POINT = basePoint();

    /** Shared by all key generation; SecureRandom is safe for concurrent use. */
    private static final SecureRandom RANDOM = new SecureRandom();

    private X25519() {
    }

    /** A new random private key from the process-wide {@link SecureRandom}, clamped as below. */
    public static byte[] generatePrivateKey() {
        return generatePrivateKey(RANDOM);
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
        try {
            return sharedSecret(privateKey, BASE_POINT);
        } catch (InvalidKeyException e) {
            throw new IllegalStateException("X25519 with the base point cannot give zero", e);
        }
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
        byte[] secret;
        try {
            KeyFactory factory = KeyFactory.getInstance("XDH");
            PrivateKey ours = factory.generatePrivate(new XECPrivateKeySpec(NamedParameterSpec.X25519, privateKey));
            PublicKey theirs = factory.generatePublic(new XECPublicKeySpec(NamedParameterSpec.X25519, u(publicKey)));
            KeyAgreement agreement = KeyAgreement.getInstance("X25519");
            agreement.init(ours);
            agreement.doPhase(theirs, true);
            secret = agreement.generateSecret();
        } catch (InvalidKeyException e) {
            // The JDK reports a low-order point this way ("Point has small order").
            throw e;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("the JDK's X25519 is not available", e);
        }
        int bits = 0;
        for (byte b : secret) {
            bits |= b;
        }
        if (bits == 0) {
            throw new InvalidKeyException("X25519 result is zero: the public key is a low-order point");
        }
        return secret;
    }

    /**
     * The u-coordinate of a raw public key: the bytes are little-endian and RFC 7748 section 5 requires ignoring the
     * top bit of the last byte.
     */
    private static BigInteger u(byte[] publicKey) {
        byte[] bigEndian = new byte[Curve25519Key.LENGTH];
        for (int i = 0; i < bigEndian.length; i++) {
            bigEndian[i] = publicKey[Curve25519Key.LENGTH - 1 - i];
        }
        bigEndian[0] &= 0x7f;
        return new BigInteger(1, bigEndian);
    }

    private static void check(byte[] key, String which) {
        if (key.length != Curve25519Key.LENGTH) {
            throw new IllegalArgumentException("an X25519 " + which + " key has " + Curve25519Key.LENGTH
                    + " bytes, got " + key.length);
        }
    }

    private static byte[] basePoint() {
        byte[] u = new byte[Curve25519Key.LENGTH];
        u[0] = 9;
        return u;
    }
}
