package io.meshcontrol.core.crypto;

import org.bouncycastle.crypto.digests.Blake2sDigest;
import org.bouncycastle.crypto.macs.HMac;
import org.bouncycastle.crypto.params.KeyParameter;

/**
 * BLAKE2s-256 and the two constructions Noise builds on it: HMAC (RFC 2104 with BLAKE2s's 64-byte block, not BLAKE2s's
 * own keyed mode) and Noise's HKDF. Uses BouncyCastle's lightweight API, so no JCE provider is registered.
 */
final class Blake2s {

    /** Output length of BLAKE2s-256, which is also Noise's HASHLEN. */
    static final int LENGTH = 32;

    private static final int DIGEST_BITS = 256;

    private Blake2s() {
    }

    /** BLAKE2s-256 of the concatenated parts. */
    static byte[] hash(byte[]... parts) {
        Blake2sDigest digest = new Blake2sDigest(DIGEST_BITS);
        for (byte[] part : parts) {
            digest.update(part, 0, part.length);
        }
        byte[] out = new byte[LENGTH];
        digest.doFinal(out, 0);
        return out;
    }

    /** HMAC-BLAKE2s of the concatenated parts. */
    static byte[] hmac(byte[] key, byte[]... parts) {
        HMac mac = new HMac(new Blake2sDigest(DIGEST_BITS));
        mac.init(new KeyParameter(key));
        for (byte[] part : parts) {
            mac.update(part, 0, part.length);
        }
        byte[] out = new byte[LENGTH];
        mac.doFinal(out, 0);
        return out;
    }

    /**
     * Noise's {@code HKDF(chaining_key, input_key_material, 2)}: two 32-byte outputs. This equals RFC 5869 HKDF with
     * the chaining key as salt, empty info and 64 bytes of output, which is how Tailscale's Go code computes it.
     */
    static byte[][] hkdf(byte[] chainingKey, byte[] inputKeyMaterial) {
        byte[] pseudoRandomKey = hmac(chainingKey, inputKeyMaterial);
        byte[] first = hmac(pseudoRandomKey, new byte[] {1});
        byte[] second = hmac(pseudoRandomKey, first, new byte[] {2});
        return new byte[][] {first, second};
    }
}
