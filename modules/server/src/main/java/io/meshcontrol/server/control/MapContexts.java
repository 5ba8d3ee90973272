package io.meshcontrol.server.control;

import io.meshcontrol.core.config.MeshConfig;
import io.meshcontrol.core.wire.DNSConfig;
import io.meshcontrol.core.wire.DNSResolver;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The part of every map that comes from configuration: DNS ({@code dns.*}). The relay map is managed at runtime by
 * {@code io.meshcontrol.server.relay.DerpConfiguration}.
 */
public final class MapContexts {

    private MapContexts() {
    }

    public static DNSConfig dns(MeshConfig.Dns dns) {
        Map<String, List<DNSResolver>> routes = new LinkedHashMap<>();
        dns.nameservers().split().forEach((domain, servers) ->
                routes.put(domain, servers.stream().map(DNSResolver::at).toList()));
        List<String> domains = new ArrayList<>();
        domains.add(dns.baseDomain());
        domains.addAll(dns.searchDomains());
        return DNSConfig.builder()
                .resolvers(dns.nameservers().global().stream().map(DNSResolver::at).toList())
                .routes(routes)
                .domains(domains)
                .proxied(dns.magicDns())
                .build();
    }
}
