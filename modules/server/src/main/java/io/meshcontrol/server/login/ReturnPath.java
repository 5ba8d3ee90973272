package io.meshcontrol.server.login;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Optional;

/**
 * Where a browser goes once its login is done ({@code /login?return_to=/admin/}): a path of this server only, never
 * another site. Accepted: an absolute path ({@code /admin/}, {@code /admin/#/dns}) with nothing that a browser could
 * read as another host ({@code //evil.example}, {@code /\evil.example}, a scheme, control characters, spaces or
 * anything else outside printable ASCII). The path is then put after {@code server_url}, so the target is on the
 * server's own origin even behind a proxy's path prefix.
 */
record ReturnPath(String path) {

    /** Longer than any page of the console needs; a longer one is ignored. */
    static final int MAX_LENGTH = 512;

    /** The path asked for when it is a safe one, else empty (the login then ends on its own page). */
    static Optional<ReturnPath> of(String requested) {
        if (requested == null || requested.isEmpty() || requested.length() > MAX_LENGTH
                || requested.charAt(0) != '/' || requested.startsWith("//")) {
            return Optional.empty();
        }
        for (int i = 0; i < requested.length(); i++) {
            char c = requested.charAt(i);
            // browsers read a backslash as a slash (/\host is //host); controls and spaces they drop or rewrite;
            // anything else outside printable ASCII has no place in a Location header
            if (c == '\\' || c <= ' ' || c >= 0x7f) {
                return Optional.empty();
            }
        }
        try {
            URI uri = new URI(requested);
            if (uri.getScheme() != null || uri.getRawAuthority() != null || uri.getRawPath() == null
                    || !uri.getRawPath().startsWith("/")) {
                return Optional.empty();
            }
        } catch (URISyntaxException e) {
            return Optional.empty();
        }
        return Optional.of(new ReturnPath(requested));
    }

    /** The address to send the browser to: this path on the server at {@code serverUrl}. */
    String under(String serverUrl) {
        return serverUrl.replaceAll("/+$", "") + path;
    }
}
