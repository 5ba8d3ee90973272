package io.meshcontrol.core.model;

import io.meshcontrol.core.Limits;
import io.meshcontrol.core.MeshException;
import io.meshcontrol.core.config.HostPort;
import io.meshcontrol.core.net.IpAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The relay settings in force: where the DERP map comes from, and how the embedded relay runs. The configuration
 * file's {@code derp.*} keys give them until they are saved at runtime.
 *
 * @param urls DERP map URLs fetched and merged in this order; empty means only this server's own relays
 * @param autoUpdate whether map URLs are refetched (and map files reread) every {@code updateFrequency}
 * @param relayEnabled whether the embedded relay serves DERP and STUN and is published
 * @param ipv4 published as the embedded node's {@code IPv4} ("none" turns the family off), or null to let clients
 *     resolve the host name
 * @param ipv6 the same for {@code IPv6}
 * @param verifyClients whether only node keys of this network may use the embedded relay
 * @param stunEnabled whether the STUN socket is bound; off publishes the node with STUN port -1
 * @param stunListenAddr UDP {@code host:port} for STUN; port 0 binds a free port, which is what gets published
 * @param relays relays of your own elsewhere, each published as a one-node region
 */
public record DerpSettings(List<String> urls, boolean autoUpdate, Duration updateFrequency, boolean relayEnabled,
                           String ipv4, String ipv6, boolean verifyClients, boolean stunEnabled, String stunListenAddr,
                           List<CustomRelay> relays) {

    /** Refetching more often than this only loads the map's publisher. */
    public static final Duration MIN_UPDATE_FREQUENCY = Duration.ofMinutes(1);
    /** What a map URL reads in place of each part that may hold a credential; see {@link #shownUrl}. */
    public static final String HIDDEN = "svc-hidden";

    /** Host names as HTTP allows them in a URL's authority: letters, digits and hyphens in dot-separated labels. */
    private static final Pattern HOST_NAME = Pattern.compile(
            "(?=.{1,253}$)[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?(\\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*\\.?");

    /**
     * A relay run elsewhere (for example the vendor's {@code derper} checking clients against {@code /verify}).
     *
     * @param ipv4 the address clients dial instead of resolving {@code host}, or null
     */
    public record CustomRelay(int regionId, String code, String host, String ipv4) {
    }

    public DerpSettings {
        urls = List.copyOf(urls);
        relays = List.copyOf(relays);
    }

    /**
     * Refuses settings that cannot work, naming the first problem; nothing here touches the network.
     *
     * @param embeddedRegionId the embedded relay's region id, which a custom relay may not take
     */
    public DerpSettings validated(int embeddedRegionId) {
        Limits.count("urls", urls, Limits.DERP_URLS);
        for (int i = 0; i < urls.size(); i++) {
            requireMapUrl(Limits.text("urls[" + i + "]", urls.get(i), Limits.URL));
        }
        Limits.count("relays", relays, Limits.DERP_RELAYS);
        Limits.text("stunListenAddr", stunListenAddr, Limits.ADDRESS);
        if (autoUpdate && (updateFrequency == null || updateFrequency.compareTo(MIN_UPDATE_FREQUENCY) < 0)) {
            throw MeshException.invalid("the DERP map update frequency must be at least "
                    + MIN_UPDATE_FREQUENCY.toMinutes() + " minute while automatic updates are on");
        }
        requireAddress("ipv4", ipv4, true);
        requireAddress("ipv6", ipv6, false);
        try {
            HostPort.parse(stunListenAddr == null ? "" : stunListenAddr);
        } catch (IllegalArgumentException e) {
            throw MeshException.invalid("stunListenAddr " + e.getMessage());
        }
        Set<Integer> ids = new HashSet<>();
        for (CustomRelay relay : relays) {
            if (relay.regionId() <= 0) {
                throw MeshException.invalid("a relay's region id must be a positive number, got " + relay.regionId());
            }
            if (relay.regionId() == embeddedRegionId) {
                throw MeshException.invalid("region " + embeddedRegionId + " is the embedded relay's; give the relay "
                        + "at " + relay.host() + " another region id");
            }
            if (!ids.add(relay.regionId())) {
                throw MeshException.invalid("region " + relay.regionId() + " is listed twice among the relays");
            }
            if (relay.code() == null || relay.code().isBlank()) {
                throw MeshException.invalid("the relay of region " + relay.regionId() + " needs a region code");
            }
            Limits.text("the region code of relay " + relay.regionId(), relay.code(), Limits.REGION_CODE);
            Limits.text("the host of relay " + relay.regionId(), relay.host(), Limits.HOST);
            if (!isHttpHost(relay.host())) {
                throw MeshException.invalid("relay host \"" + relay.host() + "\" of region " + relay.regionId()
                        + " is not a valid HTTP host name or IP address");
            }
            Limits.text("the ipv4 of relay " + relay.regionId(), relay.ipv4(), Limits.ADDRESS);
            if (relay.ipv4() != null && !isIpv4(relay.ipv4())) {
                throw MeshException.invalid("relay ipv4 \"" + relay.ipv4() + "\" of region " + relay.regionId()
                        + " is not an IPv4 address");
            }
        }
        return this;
    }

    /** Whether {@code host} can stand in a URL's authority: a DNS name or an IP literal (IPv6 with or without brackets). */
    public static boolean isHttpHost(String host) {
        if (host == null || host.isEmpty()) {
            return false;
        }
        String literal = host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
        if (literal.contains(":")) {
            return isIp(literal) && !isIpv4(literal);
        }
        return HOST_NAME.matcher(host).matches() && !host.chars().allMatch(c -> Character.isDigit(c) || c == '.')
                || isIpv4(host);
    }

    /**
     * A map URL as messages and the audit log show it: without user info, query and fragment, which may hold
     * credentials ({@code https://user:secret@host/map?token=x#f} becomes {@code https://host/map}).
     */
    public static String redactedUrl(String url) {
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

    /**
     * A map URL as the API reads it back: its user info, query and fragment, which may hold credentials, each replaced
     * by {@link #HIDDEN} ({@code https://user:secret@host/map?token=x} reads {@code https://svc-hidden@host/map?svc-hidden}),
     * so that a reader sees where a secret part is without seeing it, and a writer can send the URL back unchanged.
     */
    public static String shownUrl(String url) {
        URI uri;
        try {
            uri = new URI(url);
        } catch (URISyntaxException e) {
            return "(unparseable URL)";
        }
        if (uri.getRawUserInfo() == null && uri.getRawQuery() == null && uri.getRawFragment() == null) {
            return url;
        }
        String authority = uri.getRawAuthority();
        StringBuilder shown = new StringBuilder(uri.getScheme()).append("://");
        if (uri.getRawUserInfo() != null) {
            shown.append(HIDDEN).append('@');
        }
        shown.append(authority.substring(authority.lastIndexOf('@') + 1))
                .append(uri.getRawPath() == null ? "" : uri.getRawPath());
        if (uri.getRawQuery() != null) {
            shown.append('?').append(HIDDEN);
        }
        if (uri.getRawFragment() != null) {
            shown.append('#').append(HIDDEN);
        }
        return shown.toString();
    }

    /** A copy whose map URLs read as {@link #shownUrl}: what the API answers, to readers and writers alike. */
    public DerpSettings withHiddenUrlParts() {
        return new DerpSettings(urls.stream().map(DerpSettings::shownUrl).toList(), autoUpdate, updateFrequency,
                relayEnabled, ipv4, ipv6, verifyClients, stunEnabled, stunListenAddr, relays);
    }

    /**
     * A copy in which each map URL written as it was read ({@link #shownUrl}, {@link #HIDDEN} in place of a hidden
     * part) is the URL in force it stands for, hidden parts included: the round trip of a writer that sends back what
     * it read. A URL with a hidden part that no URL in force reads as is refused: the secret it stands for is unknown.
     */
    public DerpSettings withHiddenPartsFrom(List<String> inForce) {
        List<String> whole = new java.util.ArrayList<>();
        for (String url : urls) {
            if (!hasHiddenPart(url)) {
                whole.add(url);
                continue;
            }
            whole.add(inForce.stream().filter(known -> shownUrl(known).equals(url)).findFirst()
                    .orElseThrow(() -> MeshException.invalid("DERP map URL \"" + url + "\" has " + HIDDEN
                            + " in place of its user info, query or fragment, but no map URL in force reads so; "
                            + "write the URL whole")));
        }
        return new DerpSettings(whole, autoUpdate, updateFrequency, relayEnabled, ipv4, ipv6, verifyClients,
                stunEnabled, stunListenAddr, relays);
    }

    private static boolean hasHiddenPart(String url) {
        try {
            URI uri = new URI(url);
            return HIDDEN.equals(uri.getRawUserInfo()) || HIDDEN.equals(uri.getRawQuery())
                    || HIDDEN.equals(uri.getRawFragment());
        } catch (URISyntaxException e) {
            return false; // refused as not a URL by the validation
        }
    }

    /** A copy with the relays replaced. */
    public DerpSettings withRelays(List<CustomRelay> newRelays) {
        return new DerpSettings(urls, autoUpdate, updateFrequency, relayEnabled, ipv4, ipv6, verifyClients, stunEnabled,
                stunListenAddr, newRelays);
    }

    private static void requireMapUrl(String url) {
        URI uri;
        try {
            uri = new URI(url);
        } catch (URISyntaxException e) {
            throw MeshException.invalid("DERP map URL \"" + url + "\" is not a URL: " + e.getReason());
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https") || uri.getHost() == null) {
            throw MeshException.invalid("DERP map URL \"" + url + "\" must be an http:// or https:// URL with a host");
        }
    }

    private static void requireAddress(String field, String value, boolean v4) {
        if (value == null || value.equals("none")) {
            return;
        }
        Limits.text(field, value, Limits.ADDRESS);
        if (v4 ? !isIpv4(value) : !isIp(value) || isIpv4(value)) {
            throw MeshException.invalid(field + " must be an " + (v4 ? "IPv4" : "IPv6") + " address or \"none\", got \""
                    + value + "\"");
        }
    }

    private static boolean isIp(String text) {
        try {
            IpAddress.parse(text);
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    private static boolean isIpv4(String text) {
        try {
            return IpAddress.parse(text).isIpv4();
        } catch (IllegalArgumentException e) {
            return false;
        }
    }
}
