package io.meshcontrol.notify;

import java.net.URI;

/**
 * What events say about the network they come from.
 *
 * @param name       the event objects' {@code tailnet}: the base domain of machine names, or the server's host when
 *                   there is none; also the e-mail subject's and the ntfy title's network name
 * @param baseDomain the base domain of MagicDNS names, "" when none
 * @param serverUrl  the server's URL, under which the console pages of {@code url} are
 */
public record Tailnet(String name, String baseDomain, String serverUrl) {

    public static Tailnet of(String baseDomain, String serverUrl) {
        String base = baseDomain == null ? "" : baseDomain;
        String host = URI.create(serverUrl).getHost();
        return new Tailnet(base.isEmpty() ? (host == null ? serverUrl : host) : base, base,
                serverUrl.endsWith("/") ? serverUrl.substring(0, serverUrl.length() - 1) : serverUrl);
    }
}
