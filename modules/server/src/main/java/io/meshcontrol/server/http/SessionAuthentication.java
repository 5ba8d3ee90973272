package io.meshcontrol.server.http;

import io.meshcontrol.core.auth.Caller;
import io.undertow.server.HttpServerExchange;
import java.util.Optional;

/** A browser session carried in a cookie, tried when a request has no {@code Authorization} header. */
@FunctionalInterface
public interface SessionAuthentication {

    /** No sessions. */
    SessionAuthentication NONE = exchange -> Optional.empty();

    /**
     * The session's caller; empty when the request carries no session cookie.
     *
     * @throws io.meshcontrol.core.MeshException unauthenticated for a session that is over, forbidden for a
     *                                           state-changing request that fails the CSRF check
     */
    Optional<Caller> callerFor(HttpServerExchange exchange);

    /** This kind of session, else {@code other} (a browser may hold a console sign-in and an OIDC login). */
    default SessionAuthentication orElse(SessionAuthentication other) {
        return exchange -> {
            Optional<Caller> caller = callerFor(exchange);
            return caller.isPresent() ? caller : other.callerFor(exchange);
        };
    }
}
