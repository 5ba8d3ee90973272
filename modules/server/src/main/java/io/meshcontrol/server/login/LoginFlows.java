package io.meshcontrol.server.login;

import io.meshcontrol.core.RandomText;
import io.meshcontrol.core.config.MeshConfig;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Logins under way at the issuer: each gets a random {@code state} (which the callback must bring back, once), a
 * {@code nonce} (which the ID token must carry) and a PKCE code verifier (whose challenge goes to the issuer). They
 * live in memory for {@link #LIFETIME}; a restarted server forgets them and the person starts again.
 */
final class LoginFlows {

    static final Duration LIFETIME = Duration.ofMinutes(10);
    /** More logins under way than this is an attack or a fault; the oldest lapse first anyway. */
    static final int MAX_UNDER_WAY = 10_000;

    /** What the login is for. */
    sealed interface Purpose {
        /** A machine waits ({@code tailscale up}) under this auth id. */
        record Machine(String authId) implements Purpose {
        }

        /** The owner of an SSH session's source machine proves it is them (SSH check mode, this auth id). */
        record SshCheck(String authId) implements Purpose {
        }

        /**
         * A browser session (the console).
         *
         * @param returnTo where the browser goes once the session has started; null: a page saying where the
         *                 console is
         */
        record Console(ReturnPath returnTo) implements Purpose {
        }
    }

    /** One login under way. */
    record Flow(String state, String nonce, String codeVerifier, Purpose purpose, Instant expires) {
    }

    private final Map<String, Flow> underWay = new ConcurrentHashMap<>();
    private final Clock clock;

    LoginFlows(Clock clock) {
        this.clock = clock;
    }

    Flow begin(Purpose purpose) {
        Instant now = clock.instant();
        underWay.values().removeIf(flow -> !now.isBefore(flow.expires()));
        if (underWay.size() >= MAX_UNDER_WAY) {
            throw new IllegalStateException("too many logins under way; try again in a few minutes");
        }
        // 43 to 128 characters for the verifier (RFC 7636); alphanumerics are among its unreserved characters.
        Flow flow = new Flow(RandomText.alphanumeric(32), RandomText.alphanumeric(32), RandomText.alphanumeric(64),
                purpose, now.plus(LIFETIME));
        underWay.put(flow.state(), flow);
        return flow;
    }

    /** The flow a callback's {@code state} names, taken so that it cannot be used twice; empty if unknown or lapsed. */
    Optional<Flow> take(String state) {
        Flow flow = state == null ? null : underWay.remove(state);
        return flow != null && clock.instant().isBefore(flow.expires()) ? Optional.of(flow) : Optional.empty();
    }

    /** The PKCE challenge of a verifier: its SHA-256 in unpadded base64url (S256), or itself (plain). */
    static String challenge(String verifier, MeshConfig.Pkce.Method method) {
        if (method == MeshConfig.Pkce.Method.PLAIN) {
            return verifier;
        }
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(verifier.getBytes(StandardCharsets.US_ASCII));
            return Base64.getUrlEncoder().withoutPadding().encodeToString(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required of every JDK", e);
        }
    }
}
