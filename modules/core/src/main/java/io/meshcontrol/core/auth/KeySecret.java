package io.meshcontrol.core.auth;

import io.meshcontrol.core.RandomText;
import io.meshcontrol.core.crypto.Sha256;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The text form of a secret key, {@code svckey-<kind>-<prefix>-<secret>}: API keys, pre-auth keys, OAuth client
 * secrets (whose prefix is the client's id) and OAuth access tokens. The prefix is public (it names the key in
 * listings and commands); the secret is shown once and stored only as a hash: SHA-256 for credentials checked on every
 * request, which is enough for a random 32-character secret, and a slow, salted hash ({@link SlowHash}) for OAuth client
 * secrets, which are checked once per access token.
 */
public record KeySecret(Kind kind, String prefix, String secret) {

    public enum Kind {
        API("svckey-api-"),
        /** Pre-auth keys, which nodes present at registration. */
        AUTH("svckey-auth-"),
        /**
         * OAuth client secrets. Node clients turn an auth key into a client secret only when it starts with the
         * vendor's prefix, so the spec's {@code meshkey-client-} and the real client's {@code tskey-client-} are
         * accepted as well (docs/identity.md).
         */
        CLIENT("svckey-client-", "meshkey-client-", "tskey-client-"),
        /** OAuth access tokens from {@code /api/v2/oauth/token} and {@code /api/v2/oauth/token-exchange}. */
        TOKEN("svckey-token-");

        private final String textPrefix;
        private final List<String> acceptedPrefixes;

        Kind(String textPrefix, String... aliases) {
            this.textPrefix = textPrefix;
            this.acceptedPrefixes = Stream.concat(Stream.of(textPrefix), Stream.of(aliases)).toList();
        }

        /** The prefix of a presented key of this kind, or null when it has none of the accepted ones. */
        String acceptedPrefixOf(String text) {
            return acceptedPrefixes.stream().filter(text::startsWith).findFirst().orElse(null);
        }

        public String textPrefix() {
            return textPrefix;
        }
    }

    private static final int PREFIX_LENGTH = 12;
    private static final int SECRET_LENGTH = 32;
    /** The text prefix of headscale's pre-auth keys, accepted for keys imported from it. */
    public static final String HEADSCALE_AUTH = "hskey-auth-";
    private static final int HEADSCALE_SECRET_LENGTH = 64;

    public static KeySecret generate(Kind kind) {
        return new KeySecret(kind, RandomText.lowerAlphanumeric(PREFIX_LENGTH), RandomText.alphanumeric(SECRET_LENGTH));
    }

    /** Parses a presented key; empty when the text is not a key of this kind. */
    public static Optional<KeySecret> parse(Kind kind, String text) {
        if (kind == Kind.AUTH && text != null && text.startsWith(HEADSCALE_AUTH)) {
            return parseHeadscale(kind, text.substring(HEADSCALE_AUTH.length()));
        }
        String accepted = text == null ? null : kind.acceptedPrefixOf(text);
        if (accepted == null) {
            return Optional.empty();
        }
        String rest = text.substring(accepted.length());
        int dash = rest.indexOf('-');
        if (dash != PREFIX_LENGTH || rest.length() - dash - 1 != SECRET_LENGTH) {
            return Optional.empty();
        }
        return Optional.of(new KeySecret(kind, rest.substring(0, dash), rest.substring(dash + 1)));
    }

    /**
     * A pre-auth key carried over from headscale ({@code svc import headscale}): {@code hskey-auth-}, a 12-character
     * prefix and a 64-character secret, both URL-safe base64 characters (so either may hold a dash: the split is by
     * length). Its stored hash is headscale's bcrypt hash of the secret.
     */
    private static Optional<KeySecret> parseHeadscale(Kind kind, String rest) {
        if (rest.length() != PREFIX_LENGTH + 1 + HEADSCALE_SECRET_LENGTH || rest.charAt(PREFIX_LENGTH) != '-') {
            return Optional.empty();
        }
        return Optional.of(new KeySecret(kind, rest.substring(0, PREFIX_LENGTH), rest.substring(PREFIX_LENGTH + 1)));
    }

    /** Accepts a prefix as typed by a person: bare, or with the kind's text prefix. */
    public static String normalizePrefix(Kind kind, String typed) {
        String trimmed = typed.trim();
        return trimmed.startsWith(kind.textPrefix) ? trimmed.substring(kind.textPrefix.length()) : trimmed;
    }

    public String text() {
        return kind.textPrefix + prefix + "-" + secret;
    }

    public String hash() {
        return kind == Kind.CLIENT ? SlowHash.of(secret) : Sha256.hex(secret);
    }

    public boolean matches(String storedHash) {
        if (SlowHash.isSlowHash(storedHash)) {
            return SlowHash.matches(secret, storedHash);
        }
        if (ImportedHash.isBcrypt(storedHash)) {
            return ImportedHash.matchesBcrypt(secret, storedHash);
        }
        return MessageDigest.isEqual(Sha256.hex(secret).getBytes(StandardCharsets.US_ASCII),
                storedHash.getBytes(StandardCharsets.US_ASCII));
    }

    @Override
    public String toString() {
        return kind.textPrefix + prefix + "-<redacted>";
    }
}
