package io.meshcontrol.relay.map;

import io.meshcontrol.core.model.DerpSettings;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;

/** Map URLs as they are dialled: user info becomes an Authorization header, not part of the request URL. */
final class MapUrls {

    private MapUrls() {
    }

    static URI withoutUserInfo(URI uri) {
        String text = uri.getScheme() + "://" + uri.getHost() + (uri.getPort() >= 0 ? ":" + uri.getPort() : "")
                + (uri.getRawPath() == null ? "" : uri.getRawPath())
                + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery());
        try {
            return new URI(text);
        } catch (URISyntaxException e) {
            throw new MapSourceException("DERP map URL " + DerpSettings.redactedUrl(uri.toString()) + " is not a URL");
        }
    }

    static String decode(String rawUserInfo) {
        return URLDecoder.decode(rawUserInfo.replace("+", "%2B"), StandardCharsets.UTF_8);
    }
}
