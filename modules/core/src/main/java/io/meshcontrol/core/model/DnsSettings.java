package io.meshcontrol.core.model;

import io.meshcontrol.core.MeshException;
import io.meshcontrol.core.address.DnsLabels;
import io.meshcontrol.core.net.IpAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The DNS every node is sent: resolvers, split DNS, search domains, and whether MagicDNS names nodes.
 *
 * @param magicDns nodes get names under the base domain; set in the configuration file only
 * @param overrideLocalDns true: {@code nameservers} replace the nodes' own resolvers; false: they are fallbacks
 * @param splitDns resolvers per domain
 * @param searchPaths extra search domains (the base domain always comes first)
 */
public record DnsSettings(boolean magicDns, boolean overrideLocalDns, List<Resolver> nameservers,
        Map<String, List<Resolver>> splitDns, List<String> searchPaths) {

    /**
     * A resolver: an IP address or an {@code https://} DNS-over-HTTPS URL.
     *
     * @param useWithExitNode keep using it while the node uses an exit node (clients 1.88.1 and later)
     */
    public record Resolver(String address, boolean useWithExitNode) {

        public Resolver {
            if (address == null || !(IpAddress.tryParse(address).isPresent() || isHttpsUrl(address))) {
                throw MeshException.invalid("invalid nameserver \"" + address
                        + "\": use an IP address or an https:// DNS-over-HTTPS URL");
            }
        }

        private static boolean isHttpsUrl(String text) {
            try {
                URI uri = new URI(text);
                return "https".equalsIgnoreCase(uri.getScheme()) && uri.getHost() != null;
            } catch (URISyntaxException e) {
                return false;
            }
        }
    }

    public DnsSettings {
        nameservers = List.copyOf(nameservers);
        Map<String, List<Resolver>> split = new LinkedHashMap<>();
        splitDns.forEach((domain, resolvers) -> split.put(domain(domain), List.copyOf(resolvers)));
        splitDns = Collections.unmodifiableMap(split);
        List<String> paths = new ArrayList<>();
        for (String path : searchPaths) {
            paths.add(domain(path));
        }
        searchPaths = List.copyOf(new LinkedHashSet<>(paths));
    }

    /** What the configuration file's {@code dns.*} keys say. */
    public static DnsSettings configured(boolean magicDns, boolean overrideLocalDns, List<String> global,
            Map<String, List<String>> split, List<String> searchDomains) {
        Map<String, List<Resolver>> splitDns = new LinkedHashMap<>();
        split.forEach((domain, servers) -> splitDns.put(domain, resolvers(servers)));
        return new DnsSettings(magicDns, overrideLocalDns, resolvers(global), splitDns, searchDomains);
    }

    public static DnsSettings defaults() {
        return new DnsSettings(true, false, List.of(), Map.of(), List.of());
    }

    private static List<Resolver> resolvers(List<String> addresses) {
        return addresses.stream().map(address -> new Resolver(address, false)).toList();
    }

    /** A domain as kept: lowercase, without a final dot; refused when it is not a domain name. */
    public static String domain(String text) {
        String domain = text == null ? "" : text.toLowerCase(Locale.ROOT);
        if (domain.endsWith(".")) {
            domain = domain.substring(0, domain.length() - 1);
        }
        if (!DnsLabels.DOMAIN.matcher(domain).matches()) {
            throw MeshException.invalid("invalid domain \"" + text + "\"");
        }
        return domain;
    }

    public DnsSettings withNameservers(List<Resolver> value) {
        return new DnsSettings(magicDns, overrideLocalDns, value, splitDns, searchPaths);
    }

    public DnsSettings withSplitDns(Map<String, List<Resolver>> value) {
        return new DnsSettings(magicDns, overrideLocalDns, nameservers, value, searchPaths);
    }

    public DnsSettings withSearchPaths(List<String> value) {
        return new DnsSettings(magicDns, overrideLocalDns, nameservers, splitDns, value);
    }
}
