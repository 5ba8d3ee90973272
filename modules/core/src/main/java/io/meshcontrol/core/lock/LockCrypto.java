package io.meshcontrol.core.lock;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import org.bouncycastle.crypto.digests.Blake2sDigest;
import org.bouncycastle.crypto.generators.Argon2BytesGenerator;
import org.bouncycastle.crypto.params.Argon2Parameters;
import org.bouncycastle.math.ec.rfc8032.Ed25519;

/** The tailnet lock's primitives, from BouncyCastle: BLAKE2s-256 digests, ed25519 checks, the disablement KDF. */
public final class LockCrypto {

    /** The salt the clients derive disablement values with. */
    private static final byte[] DISABLEMENT_SALT = "tailscale network-lock disablement salt"
            .getBytes(StandardCharsets.US_ASCII);
    public static final int DISABLEMENT_LENGTH = 32;

    private LockCrypto() {
    }

    /** BLAKE2s with a 256-bit digest, unkeyed: AUM hashes and the digests signatures cover. */
    public static byte[] blake2s256(byte[] data) {
        Blake2sDigest digest = new Blake2sDigest(256);
        digest.update(data, 0, data.length);
        byte[] out = new byte[32];
        digest.doFinal(out, 0);
        return out;
    }

    /** Whether {@code signature} is {@code publicKey}'s ed25519 signature of {@code message}; false for bad lengths. */
    public static boolean ed25519Verify(byte[] publicKey, byte[] message, byte[] signature) {
        if (publicKey == null || signature == null || publicKey.length != Ed25519.PUBLIC_KEY_SIZE
                || signature.length != Ed25519.SIGNATURE_SIZE) {
            return false;
        }
        return Ed25519.verify(signature, 0, publicKey, 0, message, 0, message.length);
    }

    /**
     * The value a disablement secret is checked against: Argon2i (version 19) with 4 passes over 16 MiB in 4 lanes,
     * 32 bytes out, as the clients derive it when lock is initialised.
     */
    public static byte[] disablementValue(byte[] secret) {
        Argon2Parameters parameters = new Argon2Parameters.Builder(Argon2Parameters.ARGON2_i)
                .withVersion(Argon2Parameters.ARGON2_VERSION_13)
                .withIterations(4)
                .withMemoryAsKB(16 * 1024)
                .withParallelism(4)
                .withSalt(DISABLEMENT_SALT)
                .build();
        Argon2BytesGenerator generator = new Argon2BytesGenerator();
        generator.init(parameters);
        byte[] out = new byte[DISABLEMENT_LENGTH];
        generator.generateBytes(secret, out);
        return out;
    }

    /** Compares in constant time (secrets). */
    static boolean same(byte[] a, byte[] b) {
        return MessageDigest.isEqual(a, b);
    }
}
