package io.meshcontrol.core.auth;

import io.meshcontrol.core.RandomText;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Optional;

/**
 * The text form of an API key, {@code svckey-api-<prefix>-<secret>}. The prefix is public (it names the
 * key in listings and commands); the secret is shown once and stored only as a SHA-256 hash, which is
 * enough for a random 32-character secret.
 */
public record ApiKeySecret(String prefix, String secret) {

    public static final String TEXT_PREFIX = "svckey-api-";
    private static final int PREFIX_LENGTH = 12;
    private static final int SECRET_LENGTH = 32;

    public static ApiKeySecret generate() {
        return new ApiKeySecret(RandomText.lowerAlphanumeric(PREFIX_LENGTH), RandomText.alphanumeric(SECRET_LENGTH));
    }

    /** Parses a presented key; empty when the text is not an API key of ours. */
    public static Optional<ApiKeySecret> parse(String text) {
        if (text == null || !text.startsWith(TEXT_PREFIX)) {
            return Optional.empty();
        }
        String rest = text.substring(TEXT_PREFIX.length());
        int dash = rest.indexOf('-');
        if (dash != PREFIX_LENGTH || rest.length() - dash - 1 != SECRET_LENGTH) {
            return Optional.empty();
        }
        return Optional.of(new ApiKeySecret(rest.substring(0, dash), rest.substring(dash + 1)));
    }

    /** Accepts a prefix as typed by a person: bare, or with the {@code svckey-api-} text prefix. */
    public static String normalizePrefix(String typed) {
        String trimmed = typed.trim();
        return trimmed.startsWith(TEXT_PREFIX) ? trimmed.substring(TEXT_PREFIX.length()) : trimmed;
    }

    public String text() {
        return TEXT_PREFIX + prefix + "-" + secret;
    }

    public String hash() {
        return sha256Hex(secret);
    }

    public boolean matches(String storedHash) {
        return MessageDigest.isEqual(hash().getBytes(StandardCharsets.US_ASCII),
                storedHash.getBytes(StandardCharsets.US_ASCII));
    }

    static String sha256Hex(String text) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required of every JDK", e);
        }
    }

    @Override
    public String toString() {
        return TEXT_PREFIX + prefix + "-<redacted>";
    }
}
