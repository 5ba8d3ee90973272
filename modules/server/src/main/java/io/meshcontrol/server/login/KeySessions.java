package io.meshcontrol.server.login;

import io.meshcontrol.core.MeshException;
import io.meshcontrol.core.RandomText;
import io.meshcontrol.core.auth.Caller;
import io.meshcontrol.core.crypto.Sha256;
import io.meshcontrol.server.http.Authenticator;
import io.meshcontrol.server.http.SessionAuthentication;
import io.undertow.server.HttpServerExchange;
import io.undertow.util.Headers;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Console sessions opened by signing in with an API key (or the local credential, over loopback). The session acts
 * as that credential: every request resolves the credential again, so the v1 API's own authorisation applies, and a
 * key that expires, is rotated or revoked ends its sessions at once.
 *
 * <p>Held in memory only (the cookie's secret hashed, with the credential it stands for): a restart signs everyone
 * out, and nothing of a session is ever written to disk. The cookie is {@code HttpOnly}, {@code SameSite=Strict}
 * and {@code Secure} when the server URL or the request is https; state-changing requests pass the same CSRF check
 * as OIDC sessions ({@link SameSiteCheck}).
 */
public final class KeySessions implements SessionAuthentication {

    static final String COOKIE = "svc_console";
    /** How long a session lasts; then the person signs in again. */
    static final Duration LIFETIME = Duration.ofHours(12);
    /** 43 characters of 62 symbols: just over 256 bits. */
    private static final int SECRET_LENGTH = 43;

    private record Entry(String credential, Instant expires) {
    }

    /** A live session: the cookie's secret, whom it acts as, until when. */
    record Open(String secret, Caller caller, Instant expires) {
    }

    private final Map<String, Entry> byHash = new ConcurrentHashMap<>();
    private final Authenticator credentials;
    private final SameSiteCheck sameSite;
    private final boolean httpsUrl;
    private final Clock clock;

    /** @param credentials resolves a credential to its caller (without sessions of its own) */
    public KeySessions(Authenticator credentials, String serverUrl, Clock clock) {
        this.credentials = credentials;
        this.sameSite = new SameSiteCheck(serverUrl);
        this.httpsUrl = "https".equalsIgnoreCase(URI.create(serverUrl).getScheme());
        this.clock = clock;
    }

    /** Signs in: the credential must be valid now; the answer holds the only copy of the session's secret. */
    Open start(String credential, HttpServerExchange exchange) {
        Caller caller = credentials.callerFor(credential.strip(), exchange);
        Instant now = clock.instant();
        byHash.values().removeIf(entry -> !now.isBefore(entry.expires()));
        String secret = RandomText.alphanumeric(SECRET_LENGTH);
        Instant expires = now.plus(LIFETIME);
        byHash.put(Sha256.hex(secret), new Entry(credential.strip(), expires));
        return new Open(secret, caller, expires);
    }

    /**
     * The session the request's cookie opens, without the CSRF check; empty without the cookie.
     *
     * @throws MeshException unauthenticated for a session that is over or whose credential no longer works
     */
    Optional<Open> open(HttpServerExchange exchange) {
        Optional<String> secret = SessionCookies.cookie(exchange.getRequestHeaders().getFirst(Headers.COOKIE), COOKIE);
        if (secret.isEmpty()) {
            return Optional.empty();
        }
        String hash = Sha256.hex(secret.get());
        Entry entry = byHash.get(hash);
        if (entry == null || !clock.instant().isBefore(entry.expires())) {
            byHash.remove(hash);
            throw MeshException.unauthenticated("the console session is over (signed out, expired, or the server "
                    + "restarted); sign in again");
        }
        Caller caller;
        try {
            caller = credentials.callerFor(entry.credential(), exchange);
        } catch (MeshException e) {
            byHash.remove(hash);
            throw MeshException.unauthenticated("the API key this console session signed in with no longer works "
                    + "(expired, rotated or revoked); sign in again");
        }
        return Optional.of(new Open(secret.get(), caller, entry.expires()));
    }

    @Override
    public Optional<Caller> callerFor(HttpServerExchange exchange) {
        Optional<Open> session = open(exchange);
        if (session.isPresent() && SameSiteCheck.changes(exchange.getRequestMethod().toString())) {
            requireSameSite(exchange, session.get().secret());
        }
        return session.map(Open::caller);
    }

    void requireSameSite(HttpServerExchange exchange, String secret) {
        sameSite.require(exchange, secret);
    }

    /** Sign-out: the secret opens nothing any more. */
    void end(String secret) {
        byHash.remove(Sha256.hex(secret));
    }

    String cookie(Open session, HttpServerExchange exchange) {
        long maxAge = Math.max(0, Duration.between(clock.instant(), session.expires()).toSeconds());
        return COOKIE + "=" + session.secret() + "; Path=/; Max-Age=" + maxAge + attributes(exchange);
    }

    String clearedCookie(HttpServerExchange exchange) {
        return COOKIE + "=; Path=/; Max-Age=0" + attributes(exchange);
    }

    private String attributes(HttpServerExchange exchange) {
        boolean secure = httpsUrl || "https".equalsIgnoreCase(exchange.getRequestScheme());
        return "; HttpOnly; SameSite=Strict" + (secure ? "; Secure" : "");
    }
}
