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
 * How the embedded relay appears in the DERP map: one region with one node, reached at {@link Endpoint}.
 *
 * @param stunPort the bound STUN port, or {@link DERPNode#STUN_DISABLED} when STUN is off
 * @param off the relay was turned off: the region stays, marked {@code NoMeasureNoHome}. A region that leaves the map
 *     can stay a client's home with no connection, which its return does not repair; one that stays is seen
 *     redefined when the relay comes back, which makes the client connect again (docs/relay.md).
 * @param meshNodes with several instances whose relays mesh ({@code derp.server.mesh_with}): every instance's relay,
 *     in the configured order, so that every instance publishes the same region; empty for the one relay at
 *     {@code endpoint}. Each node is named after the region and a letter ({@code 999a}, {@code 999b}), as derper's
 *     regions are, and is found by its host name (an instance's own {@code ipv4}/{@code ipv6} would be wrong for the
 *     others).
 */
public record EmbeddedRegion(int regionId, String regionCode, String regionName, Endpoint endpoint, int stunPort,
                             Optional<String> ipv4, Optional<String> ipv6, boolean off, List<Endpoint> meshNodes) {

    public EmbeddedRegion {
        meshNodes = List.copyOf(meshNodes);
    }

    /** A region of one relay. */
    public EmbeddedRegion(int regionId, String regionCode, String regionName, Endpoint endpoint, int stunPort,
            Optional<String> ipv4, Optional<String> ipv6, boolean off) {
        this(regionId, regionCode, regionName, endpoint, stunPort, ipv4, ipv6, off, List.of());
    }

    /** A region of one relay that is on. */
    public EmbeddedRegion(int regionId, String regionCode, String regionName, Endpoint endpoint, int stunPort,
            Optional<String> ipv4, Optional<String> ipv6) {
        this(regionId, regionCode, regionName, endpoint, stunPort, ipv4, ipv6, false);
    }

    /**
     * Where clients reach the relay over TLS, which is all stock clients speak to a relay.
     *
     * @param derpPort the TLS port; 0 leaves it out (clients use 443)
     * @param certName the pinned certificate ({@code sha256-raw:<hex>}), or null for a certificate clients verify
     *                 against their CAs
     */
    public record Endpoint(String hostName, int derpPort, String certName) {

        /**
         * The server's own HTTPS listener, at {@code serverUrl}. {@code boundPort} is the listener's actual port; it
         * is published instead of the URL's when the listener was asked for port 0 (tests), since the URL cannot know
         * it.
         */
        public static Endpoint https(URI serverUrl, boolean listenerOnPortZero, int boundPort) {
            int port = listenerOnPortZero ? boundPort : Math.max(serverUrl.getPort(), 0);
            return new Endpoint(serverUrl.getHost(), port, null);
        }

        /** A relay of the mesh at its public {@code https} URL (port 443 unless the URL names one). */
        public static Endpoint meshNode(URI relayUrl) {
            return new Endpoint(relayUrl.getHost(), Math.max(relayUrl.getPort(), 0), null);
        }

        /** The relay's own TLS port with its self-signed certificate, for a server reached over plain HTTP. */
        public static Endpoint pinned(String hostName, int tlsPort, String pin) {
            return new Endpoint(hostName, tlsPort, pin);
        }
    }

    /** The region in the vendor's shape; the node is named after the region id, as derper's own maps do. */
    public DERPRegion toWire() {
        if (!meshNodes.isEmpty()) {
            List<DERPNode> nodes = new java.util.ArrayList<>();
            for (int i = 0; i < meshNodes.size(); i++) {
                Endpoint mesh = meshNodes.get(i);
                nodes.add(DERPNode.builder()
                        .name(regionId + String.valueOf((char) ('a' + i)))
                        .regionId(regionId)
                        .hostName(mesh.hostName())
                        .stunPort(stunPort)
                        .derpPort(mesh.derpPort())
                        .build());
            }
            return new DERPRegion(regionId, regionCode, regionName, 0, 0, false, off, nodes);
        }
        DERPNode node = DERPNode.builder()
                .name(Integer.toString(regionId))
                .regionId(regionId)
                .hostName(endpoint.hostName())
                .ipv4(ipv4.orElse(null))
                .ipv6(ipv6.orElse(null))
                .stunPort(stunPort)
                .derpPort(endpoint.derpPort())
                .certName(endpoint.certName())
                .build();
        return new DERPRegion(regionId, regionCode, regionName, 0, 0, false, off, List.of(node));
    }

    /** {@code map} with this region added, replacing a configured region of the same id. */
    public DERPMap addTo(DERPMap map) {
        Map<Integer, DERPRegion> regions = new TreeMap<>(map.regions() == null ? Map.of() : map.regions());
        regions.put(regionId, toWire());
        return new DERPMap(map.homeParams(), regions, map.omitDefaultRegions());
    }
}
