package io.meshcontrol.relay.map;

import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;

/** How map URLs are shown in messages and the audit log: without user info and query, which may hold credentials. */
public final class MapUrls {

    private MapUrls() {
    }

    /** {@code https://user:secret@host/map?token=x#f} becomes {@code https://host/map}. */
    public static String redacted(String url) {
        try {
            URI uri = new URI(url);
            if (uri.getHost() == null) {
                return "(unparseable URL)";
            }
            return new URI(uri.getScheme(), null, uri.getHost(), uri.getPort(), uri.getPath(), null, null).toString();
        } catch (URISyntaxException e) {
            return "(unparseable URL)";
        }
    }

    static URI withoutUserInfo(URI uri) {
        String text = uri.getScheme() + "://" + uri.getHost() + (uri.getPort() >= 0 ? ":" + uri.getPort() : "")
                + (uri.getRawPath() == null ? "" : uri.getRawPath())
                + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery());
        try {
            return new URI(text);
        } catch (URISyntaxException e) {
            throw new MapSourceException("DERP map URL " + redacted(uri.toString()) + " is not a URL");
        }
    }

    static String decode(String rawUserInfo) {
        return URLDecoder.decode(rawUserInfo.replace("+", "%2B"), StandardCharsets.UTF_8);
    }
}
