package io.meshcontrol.server.login;

import io.meshcontrol.core.MeshException;
import io.meshcontrol.core.crypto.Sha256;
import io.undertow.server.HttpServerExchange;
import io.undertow.util.HeaderMap;
import io.undertow.util.Headers;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Set;

/**
 * The CSRF check of every browser session (OIDC login and console sign-in alike): a state-changing request must
 * carry the session's token in {@value SessionCookies#CSRF_HEADER} (a page of another site cannot read it), and an
 * {@code Origin} header, when sent, must be the server's own: the origin of {@code server_url}, or the host the
 * request was sent to (the same server reached by another name, {@code localhost} for {@code 127.0.0.1}, say).
 */
final class SameSiteCheck {

    private static final Set<String> SAFE_METHODS = Set.of("GET", "HEAD", "OPTIONS");

    private final String origin;

    SameSiteCheck(String serverUrl) {
        URI url = URI.create(serverUrl);
        this.origin = url.getScheme().toLowerCase() + "://" + url.getRawAuthority().toLowerCase();
    }

    static boolean changes(String method) {
        return !SAFE_METHODS.contains(method);
    }

    /** The check of a state-changing request made with the session {@code secret}, from the request's own headers. */
    void require(HttpServerExchange exchange, String secret) {
        HeaderMap headers = exchange.getRequestHeaders();
        require(headers.getFirst(Headers.ORIGIN), headers.getFirst(Headers.HOST),
                headers.getFirst(SessionCookies.CSRF_HEADER), secret);
    }

    /** The check of a state-changing request made with the session {@code secret}. */
    void require(String originHeader, String hostHeader, String tokenHeader, String secret) {
        if (originHeader != null && !originHeader.equalsIgnoreCase(origin) && !sameHost(originHeader, hostHeader)) {
            throw MeshException.forbidden("cross-site request refused: Origin " + originHeader + " is not " + origin);
        }
        if (tokenHeader == null || !MessageDigest.isEqual(tokenHeader.getBytes(StandardCharsets.UTF_8),
                csrfToken(secret).getBytes(StandardCharsets.UTF_8))) {
            throw MeshException.forbidden("a state-changing request with a session needs the "
                    + SessionCookies.CSRF_HEADER + " header with the session's token (GET /session or "
                    + "GET /admin/session gives it)");
        }
    }

    private static boolean sameHost(String originHeader, String hostHeader) {
        int scheme = originHeader.indexOf("://");
        return hostHeader != null && scheme > 0 && originHeader.substring(scheme + 3).equalsIgnoreCase(hostHeader);
    }

    /** The session's CSRF token: derived from its secret, so nothing more is stored, and useless without the cookie. */
    static String csrfToken(String secret) {
        return Sha256.hex("csrf:" + secret);
    }
}
