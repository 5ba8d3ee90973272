package io.meshcontrol.server.login;

import io.meshcontrol.core.MeshException;
import io.meshcontrol.core.auth.Caller;
import io.meshcontrol.core.model.User;
import io.meshcontrol.core.state.BrowserSessions;
import io.meshcontrol.server.http.ApiRequest;
import io.meshcontrol.server.http.FailedCredentials;
import io.meshcontrol.server.http.Reply;
import io.meshcontrol.server.http.Routes;
import io.undertow.server.HttpServerExchange;
import io.undertow.util.Headers;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The console's session endpoint, {@code /admin/session}: {@code POST} signs in with an API key ({@link KeySessions}),
 * {@code GET} says who is signed in (a console sign-in, else an OIDC login) with the CSRF token and the scopes the
 * page uses to hide what the caller may not do, {@code DELETE} signs out. Not part of {@code /api/v1}.
 */
public final class ConsoleSignIn {

    public static final String PATH = "/admin/session";

    /** What {@code POST /admin/session} reads. */
    public record SignIn(String apiKey) {
    }

    /**
     * Who is signed in. {@code role} is the user's (absent for an all-access key or the local credential);
     * {@code singleSignOn}: OIDC login is configured, so the sign-in page offers it; {@code brand} and {@code logo}:
     * {@code branding.*}, the name and logo (a {@code data:} URL, or null) the console shows, signed in or not.
     */
    public record ConsoleSession(boolean signedIn, String actor, String user, String role, List<String> scopes,
            String csrfToken, Instant expires, boolean singleSignOn, String brand, String logo) {
    }

    private final KeySessions keys;
    /** OIDC login sessions, or null when OIDC login is off. */
    private final SessionCookies oidc;
    private final Branding branding;
    /** Sign-in with a wrong key counts towards the address's back-off, as a wrong key on the API does. */
    private final FailedCredentials failures;

    public ConsoleSignIn(KeySessions keys, Optional<SessionCookies> oidc, Branding branding,
            FailedCredentials failures) {
        this.keys = keys;
        this.oidc = oidc.orElse(null);
        this.branding = branding;
        this.failures = failures;
    }

    public void register(Routes routes) {
        routes.addPublic("GET", PATH, this::current);
        routes.addPublic("POST", PATH, request -> {
            SignIn body = request.requiredBody(SignIn.class);
            if (body.apiKey() == null || body.apiKey().isBlank()) {
                throw MeshException.invalid("apiKey is required: the API key to sign in with");
            }
            KeySessions.Open session = failures.check(request.exchange(),
                    () -> keys.start(body.apiKey(), request.exchange()));
            return reply(200, view(session.caller(), session.secret(), session.expires()),
                    keys.cookie(session, request.exchange()));
        });
        routes.addPublic("DELETE", PATH, request -> {
            HttpServerExchange exchange = request.exchange();
            Optional<KeySessions.Open> console = openQuietly(exchange);
            if (console.isPresent()) {
                keys.requireSameSite(exchange, console.get().secret());
                keys.end(console.get().secret());
            }
            Optional<String> oidcSecret = oidcSecret(exchange);
            if (oidc != null && oidcSecret.isPresent()) {
                oidc.requireSameSite(exchange, oidcSecret.get());
                oidc.end(oidcSecret.get());
                if (console.isEmpty()) {
                    return reply(204, null, oidc.clearedSessionCookie());
                }
                // both: the OIDC session is ended on the server; its cookie opens nothing any more
            }
            return reply(204, null, keys.clearedCookie(exchange));
        });
    }

    private Reply current(ApiRequest request) {
        HttpServerExchange exchange = request.exchange();
        Optional<KeySessions.Open> console = openQuietly(exchange);
        if (console.isPresent()) {
            return reply(200, view(console.get().caller(), console.get().secret(), console.get().expires()));
        }
        Optional<String> secret = oidcSecret(exchange);
        if (oidc != null && secret.isPresent()) {
            try {
                BrowserSessions.Session session = oidc.open(secret.get());
                return reply(200, view(Caller.forSession(session.user()), secret.get(), session.expires()));
            } catch (MeshException e) {
                // over: signed out
            }
        }
        return reply(200, new ConsoleSession(false, null, null, null, List.of(), null, null, oidc != null,
                branding.title(), branding.logoDataUrl()));
    }

    private Optional<KeySessions.Open> openQuietly(HttpServerExchange exchange) {
        try {
            return keys.open(exchange);
        } catch (MeshException e) {
            return Optional.empty();
        }
    }

    private static Optional<String> oidcSecret(HttpServerExchange exchange) {
        return SessionCookies.cookie(exchange.getRequestHeaders().getFirst(Headers.COOKIE), SessionCookies.SESSION);
    }

    private ConsoleSession view(Caller caller, String secret, Instant expires) {
        User owner = caller.owner();
        return new ConsoleSession(true, caller.actor(), owner == null ? null : owner.name(),
                owner == null ? null : owner.role().wireName(), caller.effectiveScopes(),
                SameSiteCheck.csrfToken(secret), expires, oidc != null, branding.title(), branding.logoDataUrl());
    }

    /** Session answers are never cached: they carry the CSRF token. */
    private static Reply reply(int status, Object body) {
        return new Reply(status, body, Map.of("Cache-Control", "no-store"));
    }

    private static Reply reply(int status, Object body, String cookie) {
        return new Reply(status, body, Map.of("Cache-Control", "no-store", "Set-Cookie", cookie));
    }
}
