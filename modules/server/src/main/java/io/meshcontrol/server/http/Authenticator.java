package io.meshcontrol.server.http;

import io.meshcontrol.core.MeshException;
import io.meshcontrol.core.auth.Caller;
import io.meshcontrol.core.state.ApiKeys;
import io.meshcontrol.core.state.OAuthClients;
import io.undertow.server.HttpServerExchange;
import io.undertow.util.Headers;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;

/**
 * Turns {@code Authorization: Bearer <credential>} into a {@link Caller}: an API key, an OAuth access token, or the
 * local administrator credential, which is accepted only over loopback. {@code /api/v2} reads its credential from other
 * headers too and resolves it here ({@link #callerFor}). A request without the header may carry a browser session
 * ({@link SessionAuthentication}).
 */
public final class Authenticator implements Authentication {

    private final ApiKeys apiKeys;
    private final OAuthClients oauthClients;
    private final String localToken;
    private final SessionAuthentication sessions;

    /** @param localToken the local administrator credential, or null when there is none */
    public Authenticator(ApiKeys apiKeys, OAuthClients oauthClients, String localToken) {
        this(apiKeys, oauthClients, localToken, SessionAuthentication.NONE);
    }

    public Authenticator(ApiKeys apiKeys, OAuthClients oauthClients, String localToken,
            SessionAuthentication sessions) {
        this.apiKeys = apiKeys;
        this.oauthClients = oauthClients;
        this.localToken = localToken;
        this.sessions = sessions;
    }

    @Override
    public Caller authenticate(HttpServerExchange exchange) {
        String header = exchange.getRequestHeaders().getFirst(Headers.AUTHORIZATION);
        if (header == null || header.isBlank()) {
            return sessions.callerFor(exchange).orElseThrow(() ->
                    MeshException.unauthenticated("missing credential: send Authorization: Bearer <API key>"));
        }
        if (!header.regionMatches(true, 0, "Bearer ", 0, 7)) {
            throw MeshException.unauthenticated("unsupported Authorization scheme: use Bearer <API key>");
        }
        return callerFor(header.substring(7).trim(), exchange);
    }

    /** The caller a credential stands for, however the request carried it. */
    public Caller callerFor(String credential, HttpServerExchange exchange) {
        if (localToken != null && isLoopback(exchange) && MessageDigest.isEqual(
                credential.getBytes(StandardCharsets.UTF_8), localToken.getBytes(StandardCharsets.UTF_8))) {
            return Caller.localAdmin();
        }
        return apiKeys.authenticate(credential).or(() -> oauthClients.authenticate(credential))
                .orElseThrow(() -> MeshException.unauthenticated("invalid, expired or revoked credential"));
    }

    private static boolean isLoopback(HttpServerExchange exchange) {
        InetSocketAddress peer = exchange.getSourceAddress();
        return peer != null && peer.getAddress() != null && peer.getAddress().isLoopbackAddress();
    }
}
