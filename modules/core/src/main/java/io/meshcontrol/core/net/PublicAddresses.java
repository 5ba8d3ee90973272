package io.meshcontrol.core.net;

import java.util.List;

/**
 * Which addresses belong to the public internet: not private, shared (CGNAT, the network's own range), loopback,
 * link-local, documentation or otherwise reserved. Used where a machine's reported endpoints stand for where it is
 * (app connectors' same-address skip, locations).
 */
public final class PublicAddresses {

    private static final List<IpPrefix> NOT_PUBLIC = List.of("0.0.0.0/8", "10.0.0.0/8", "100.64.0.0/10",
            "127.0.0.0/8", "169.254.0.0/16", "172.16.0.0/12", "192.0.0.0/24", "192.0.2.0/24", "192.168.0.0/16",
            "198.18.0.0/15", "198.51.100.0/24", "203.0.113.0/24", "240.0.0.0/4", "::1/128", "fc00::/7", "fe80::/10",
            "2001:db8::/32").stream().map(IpPrefix::parse).toList();

    private PublicAddresses() {
    }

    /** Whether every address of the prefix is public. */
    public static boolean isPublic(IpPrefix prefix) {
        return NOT_PUBLIC.stream().noneMatch(p -> p.contains(prefix));
    }

    public static boolean isPublic(IpAddress address) {
        return isPublic(IpPrefix.single(address));
    }
}
