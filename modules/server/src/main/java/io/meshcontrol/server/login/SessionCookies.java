package io.meshcontrol.server.login;

import io.meshcontrol.core.MeshException;
import io.meshcontrol.core.auth.Caller;
import io.meshcontrol.core.state.BrowserSessions;
import io.meshcontrol.server.http.SessionAuthentication;
import io.undertow.server.HttpServerExchange;
import io.undertow.util.Headers;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * The browser side of OIDC login sessions: the session cookie ({@code HttpOnly}, {@code SameSite=Lax}, {@code Secure}
 * when the server URL is https), and the CSRF check ({@link SameSiteCheck}) of every state-changing request a session
 * makes. Console sessions opened with an API key are {@link KeySessions}.
 */
public final class SessionCookies implements SessionAuthentication {

    static final String SESSION = "svc_session";
    /**
     * Binds a login under way to the browser that started it: the callback must come back with the cookie of its
     * state (one per login, so that two logins under way in one browser do not overwrite each other's).
     */
    private static final String LOGIN_STATE = "svc_login_";
    public static final String CSRF_HEADER = "X-CSRF-Token";
    static final String CALLBACK_PATH = "/oidc/callback";

    private final BrowserSessions sessions;
    private final boolean secure;
    private final SameSiteCheck sameSite;

    SessionCookies(BrowserSessions sessions, String serverUrl) {
        this.sessions = sessions;
        URI url = URI.create(serverUrl);
        this.secure = "https".equalsIgnoreCase(url.getScheme());
        this.sameSite = new SameSiteCheck(serverUrl);
    }

    @Override
    public Optional<Caller> callerFor(HttpServerExchange exchange) {
        Optional<String> secret = cookie(exchange.getRequestHeaders().getFirst(Headers.COOKIE), SESSION);
        if (secret.isEmpty()) {
            return Optional.empty();
        }
        BrowserSessions.Session session = open(secret.get());
        if (SameSiteCheck.changes(exchange.getRequestMethod().toString())) {
            requireSameSite(exchange, secret.get());
        }
        return Optional.of(Caller.forSession(session.user()));
    }

    /** The live session of a cookie's secret. */
    BrowserSessions.Session open(String secret) {
        return sessions.find(secret).orElseThrow(() ->
                MeshException.unauthenticated("the session is over (logged out or expired); log in again at /login"));
    }

    /** The CSRF check of a state-changing request made with the session {@code secret}. */
    void requireSameSite(HttpServerExchange exchange, String secret) {
        sameSite.require(exchange, secret);
    }

    /** The session's CSRF token. */
    static String csrfToken(String secret) {
        return SameSiteCheck.csrfToken(secret);
    }

    /** Logout: the session of {@code secret} opens nothing any more. */
    void end(String secret) {
        sessions.end(secret);
    }

    String sessionCookie(BrowserSessions.Started started, Instant now) {
        long maxAge = Math.max(0, Duration.between(now, started.expires()).toSeconds());
        return SESSION + "=" + started.secret() + "; Path=/; Max-Age=" + maxAge + attributes();
    }

    String clearedSessionCookie() {
        return SESSION + "=; Path=/; Max-Age=0" + attributes();
    }

    /** Sent back by the browser on the issuer's redirect to the callback (a top-level GET: Lax lets it through). */
    String loginStateCookie(String state) {
        return LOGIN_STATE + state + "=1; Path=" + CALLBACK_PATH + "; Max-Age="
                + LoginFlows.LIFETIME.toSeconds() + attributes();
    }

    /** Deletes the cookie of {@code state} in the browser: the callback used it, whatever the outcome. */
    String clearedLoginStateCookie(String state) {
        return LOGIN_STATE + state + "=; Path=" + CALLBACK_PATH + "; Max-Age=0" + attributes();
    }

    /** Whether the callback's request came from the browser that started the login of {@code state}. */
    static boolean startedHere(String cookieHeader, String state) {
        return cookie(cookieHeader, LOGIN_STATE + state).isPresent();
    }

    private String attributes() {
        return "; HttpOnly; SameSite=Lax" + (secure ? "; Secure" : "");
    }

    /** The value of cookie {@code name} in a {@code Cookie} header. */
    static Optional<String> cookie(String header, String name) {
        if (header == null) {
            return Optional.empty();
        }
        for (String pair : header.split(";")) {
            int eq = pair.indexOf('=');
            if (eq > 0 && pair.substring(0, eq).strip().equals(name)) {
                String value = pair.substring(eq + 1).strip();
                return value.isEmpty() ? Optional.empty() : Optional.of(value);
            }
        }
        return Optional.empty();
    }
}
