package io.meshcontrol.core.netmap.context;

import io.meshcontrol.core.model.DnsSettings;
import io.meshcontrol.core.wire.DNSConfig;
import io.meshcontrol.core.wire.DNSRecord;
import io.meshcontrol.core.wire.DNSResolver;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The DNS part of every map, from the network's DNS settings ({@code dns.*}, or what the API saved). */
public final class MapDns {

    private MapDns() {
    }

    /**
     * With {@code overrideLocalDns} the nameservers replace the nodes' own resolvers; without it they are only
     * fallbacks, and nodes keep their own. The base domain comes first among the search domains.
     *
     * @param extraRecords the records of {@code dns.extra_records}, which MagicDNS answers as well
     */
    public static DNSConfig of(DnsSettings dns, String baseDomain, List<DNSRecord> extraRecords) {
        Map<String, List<DNSResolver>> routes = new LinkedHashMap<>();
        dns.splitDns().forEach((domain, servers) ->
                routes.put(domain, servers.stream().map(MapDns::resolver).toList()));
        List<String> domains = new ArrayList<>();
        if (!baseDomain.isEmpty()) {
            domains.add(baseDomain);
        }
        domains.addAll(dns.searchPaths());
        List<DNSResolver> nameservers = dns.nameservers().stream().map(MapDns::resolver).toList();
        return DNSConfig.builder()
                .resolvers(dns.overrideLocalDns() ? nameservers : List.of())
                .fallbackResolvers(dns.overrideLocalDns() ? List.of() : nameservers)
                .routes(routes)
                .domains(domains)
                .proxied(dns.magicDns())
                .extraRecords(extraRecords)
                .build();
    }

    private static DNSResolver resolver(DnsSettings.Resolver resolver) {
        return new DNSResolver(resolver.address(), null, resolver.useWithExitNode());
    }
}
