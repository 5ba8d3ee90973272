package io.meshcontrol.relay.map;

import io.meshcontrol.core.wire.DERPMap;
import io.meshcontrol.core.wire.DERPNode;
import io.meshcontrol.core.wire.DERPRegion;
import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * How the embedded relay appears in the DERP map: one region with one node, reached at the server's own URL.
 *
 * <p>On an {@code http://} server URL the node is marked {@code InsecureForTests} and its port is written out: Go
 * clients speak DERP over plain HTTP only with {@code TS_DEBUG_USE_DERP_HTTP=1}, and then dial {@code DERPPort}, or
 * 3340 when it is absent, so port 80 must be explicit.
 *
 * @param stunPort the bound STUN port, or {@link DERPNode#STUN_DISABLED} when STUN is off
 */
public record EmbeddedRegion(int regionId, String regionCode, String regionName, String hostName, int derpPort,
                             boolean plainHttp, int stunPort, Optional<String> ipv4, Optional<String> ipv6) {

    /**
     * The region for a server reached at {@code serverUrl}. {@code boundPort} is the listener's actual port; it is
     * published instead of the URL's when the listener was asked for port 0 (tests), since the URL cannot know it.
     */
    public static EmbeddedRegion of(URI serverUrl, boolean listenerOnPortZero, int boundPort, int regionId,
            String regionCode, String regionName, int stunPort, Optional<String> ipv4, Optional<String> ipv6) {
        boolean plain = "http".equalsIgnoreCase(serverUrl.getScheme());
        int port;
        if (listenerOnPortZero) {
            port = boundPort;
        } else if (serverUrl.getPort() > 0) {
            port = serverUrl.getPort();
        } else {
            // Absent means 443 to clients; plain HTTP needs its 80 spelled out (absent would mean 3340).
            port = plain ? 80 : 0;
        }
        return new EmbeddedRegion(regionId, regionCode, regionName, serverUrl.getHost(), port, plain, stunPort, ipv4,
                ipv6);
    }

    /** The region in the vendor's shape; the node is named after the region id, as derper's own maps do. */
    public DERPRegion toWire() {
        DERPNode node = DERPNode.builder()
                .name(Integer.toString(regionId))
                .regionId(regionId)
                .hostName(hostName)
                .ipv4(ipv4.orElse(null))
                .ipv6(ipv6.orElse(null))
                .stunPort(stunPort)
                .derpPort(derpPort)
                .insecureForTests(plainHttp)
                .build();
        return new DERPRegion(regionId, regionCode, regionName, 0, 0, false, false, List.of(node));
    }

    /** {@code map} with this region added, replacing a configured region of the same id. */
    public DERPMap addTo(DERPMap map) {
        Map<Integer, DERPRegion> regions = new TreeMap<>(map.regions() == null ? Map.of() : map.regions());
        regions.put(regionId, toWire());
        return new DERPMap(map.homeParams(), regions, map.omitDefaultRegions());
    }
}
