package io.meshcontrol.relay.map;

import io.meshcontrol.core.wire.DERPMap;
import io.meshcontrol.core.wire.DERPNode;
import io.meshcontrol.core.wire.DERPRegion;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The answer of {@code /bootstrap-dns}: the addresses of every relay node in the map and of this server, by name, in
 * derper's shape ({@code {"name": ["ip", ...]}}). Clients ask for it when their own DNS fails, to reach the relays
 * and the control server anyway.
 */
public final class BootstrapDns {

    private BootstrapDns() {
    }

    /** Every name to resolve: each node's host name, and the server's. */
    public static List<String> names(DERPMap map, String serverHost) {
        TreeSet<String> names = new TreeSet<>();
        if (serverHost != null && !serverHost.isBlank()) {
            names.add(serverHost);
        }
        if (map.regions() != null) {
            for (DERPRegion region : map.regions().values()) {
                for (DERPNode node : region.nodes()) {
                    if (!node.hostName().isBlank()) {
                        names.add(node.hostName());
                    }
                }
            }
        }
        return List.copyOf(names);
    }

    /**
     * Resolves every name; a name that does not resolve is left out (as derper leaves it out). A node whose map entry
     * gives {@code IPv4}/{@code IPv6} is answered with those too, since clients dial them.
     */
    public static Map<String, List<String>> resolve(DERPMap map, String serverHost, MapUrlFetcher.Resolver resolver) {
        Map<String, List<String>> answer = new TreeMap<>();
        for (String name : names(map, serverHost)) {
            TreeSet<String> addresses = new TreeSet<>(published(map, name));
            try {
                Arrays.stream(resolver.resolve(name)).map(InetAddress::getHostAddress).forEach(addresses::add);
            } catch (UnknownHostException e) {
                // left out, or only what the map itself gives
            }
            if (!addresses.isEmpty()) {
                answer.put(name, List.copyOf(addresses));
            }
        }
        return answer;
    }

    private static List<String> published(DERPMap map, String name) {
        List<String> out = new ArrayList<>();
        if (map.regions() == null) {
            return out;
        }
        for (DERPRegion region : map.regions().values()) {
            for (DERPNode node : region.nodes()) {
                if (node.hostName().equals(name)) {
                    for (String ip : new String[] {node.ipv4(), node.ipv6()}) {
                        if (!ip.isEmpty() && !ip.equals(DERPNode.NONE)) {
                            out.add(ip);
                        }
                    }
                }
            }
        }
        return out;
    }
}
