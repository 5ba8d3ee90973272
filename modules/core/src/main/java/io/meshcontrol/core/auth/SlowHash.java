package io.meshcontrol.core.auth;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;

/**
 * A salted, deliberately slow hash (PBKDF2-HMAC-SHA256) for secrets that are presented rarely: OAuth client secrets,
 * checked once per access token. A stolen database then costs an attacker that work per guess; credentials checked on
 * every request (API keys, access tokens) keep the fast hash of {@link KeySecret}, whose 32 random characters are
 * beyond guessing anyway. Stored as {@code pbkdf2-sha256$<iterations>$<salt>$<hash>} (base64), so that the work
 * factor can grow without making stored hashes unreadable.
 */
public final class SlowHash {

    static final String PREFIX = "pbkdf2-sha256$";
    private static final int ITERATIONS = 210_000;
    private static final int SALT_BYTES = 16;
    private static final int HASH_BITS = 256;
    private static final SecureRandom RANDOM = new SecureRandom();

    private SlowHash() {
    }

    public static String of(String secret) {
        byte[] salt = new byte[SALT_BYTES];
        RANDOM.nextBytes(salt);
        Base64.Encoder base64 = Base64.getEncoder().withoutPadding();
        return PREFIX + ITERATIONS + "$" + base64.encodeToString(salt) + "$"
                + base64.encodeToString(derive(secret, salt, ITERATIONS));
    }

    /** Whether {@code stored} is a slow hash of this kind (else it is another kind of hash). */
    public static boolean isSlowHash(String stored) {
        return stored.startsWith(PREFIX);
    }

    public static boolean matches(String secret, String stored) {
        String[] parts = stored.substring(PREFIX.length()).split("\\$");
        if (parts.length != 3) {
            return false;
        }
        try {
            int iterations = Integer.parseInt(parts[0]);
            byte[] salt = Base64.getDecoder().decode(parts[1]);
            byte[] expected = Base64.getDecoder().decode(parts[2]);
            return iterations > 0 && MessageDigest.isEqual(expected, derive(secret, salt, iterations));
        } catch (IllegalArgumentException e) {
            return false; // not a hash this code wrote
        }
    }

    private static byte[] derive(String secret, byte[] salt, int iterations) {
        PBEKeySpec spec = new PBEKeySpec(secret.toCharArray(), salt, iterations, HASH_BITS);
        try {
            return SecretKeyFactory.getInstance("PBKDF2WithHmacSHA256").generateSecret(spec).getEncoded();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("PBKDF2WithHmacSHA256 is required of every JDK", e);
        } finally {
            spec.clearPassword();
        }
    }
}
