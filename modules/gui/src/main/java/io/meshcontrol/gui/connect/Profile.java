package io.meshcontrol.gui.connect;

import io.meshcontrol.gui.screen.Failures.InvalidInputException;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;

/**
 * A saved server: the one on this machine (no URL: its local credential) or a remote one (URL, API key kept apart in
 * a file only the user can read).
 *
 * @param insecure skip TLS certificate verification, as {@code cli.insecure} does for the CLI
 */
public record Profile(String name, URI url, boolean insecure) {

    /** The name of the server on this machine, always offered first. */
    public static final String LOCAL = "This computer";

    public static Profile local() {
        return new Profile(LOCAL, null, false);
    }

    public boolean isLocal() {
        return url == null;
    }

    /** A remote server's address as typed: {@code https://} is assumed without a scheme, as for {@code cli.address}. */
    public static URI address(String text) {
        String trimmed = text == null ? "" : text.trim();
        if (trimmed.isEmpty()) {
            throw new InvalidInputException("Enter the server's address, such as https://mesh.example.com");
        }
        String withScheme = trimmed.contains("://") ? trimmed : "https://" + trimmed;
        try {
            URI uri = new URI(withScheme);
            String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
            if ((scheme.equals("http") || scheme.equals("https")) && uri.getHost() != null) {
                return uri;
            }
        } catch (URISyntaxException e) {
            // said below
        }
        throw new InvalidInputException("\"" + trimmed + "\" is not a server address: use an http:// or https:// URL,"
                + " or a host with an optional port");
    }

    @Override
    public String toString() {
        return isLocal() ? name : name + " (" + url + ")";
    }
}
