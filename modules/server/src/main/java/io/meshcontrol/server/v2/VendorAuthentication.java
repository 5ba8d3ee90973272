package io.meshcontrol.server.v2;

import io.meshcontrol.core.MeshException;
import io.meshcontrol.core.auth.Caller;
import io.meshcontrol.server.http.Authentication;
import io.meshcontrol.server.http.Authenticator;
import io.undertow.server.HttpServerExchange;
import io.undertow.util.Headers;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * How {@code /api/v2} callers prove who they are, in both forms the vendor documents and its clients send: HTTP Basic
 * with the credential as user name and an empty password (the Go client with an API key, the node client with an
 * exchanged token), or {@code Bearer <credential>} (OAuth transports). Every kind of credential is taken in both.
 */
public final class VendorAuthentication implements Authentication {

    private final Authenticator credentials;

    public VendorAuthentication(Authenticator credentials) {
        this.credentials = credentials;
    }

    @Override
    public Caller authenticate(HttpServerExchange exchange) {
        String header = exchange.getRequestHeaders().getFirst(Headers.AUTHORIZATION);
        if (header == null || header.isBlank()) {
            throw MeshException.unauthenticated(
                    "missing credential: send the API key or access token as Bearer, or as the Basic user name");
        }
        return credentials.callerFor(credential(header.trim()), exchange);
    }

    private static String credential(String header) {
        if (header.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return header.substring(7).trim();
        }
        if (header.regionMatches(true, 0, "Basic ", 0, 6)) {
            String decoded;
            try {
                decoded = new String(Base64.getDecoder().decode(header.substring(6).trim()), StandardCharsets.UTF_8);
            } catch (IllegalArgumentException e) {
                throw MeshException.unauthenticated("the Basic credential is not valid base64");
            }
            int colon = decoded.indexOf(':');
            // The key is the user name; the password is empty, and ignored when a client fills it in anyway.
            return colon < 0 ? decoded : decoded.substring(0, colon);
        }
        throw MeshException.unauthenticated("unsupported Authorization scheme: use Bearer or Basic");
    }
}
