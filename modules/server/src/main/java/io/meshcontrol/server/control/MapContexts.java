package io.meshcontrol.server.control;

import io.meshcontrol.core.config.MeshConfig;
import io.meshcontrol.core.wire.DERPMap;
import io.meshcontrol.core.wire.DERPRegion;
import io.meshcontrol.core.wire.DNSConfig;
import io.meshcontrol.core.wire.DNSResolver;
import io.meshcontrol.core.wire.WireJson;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The parts of every map that come from configuration: DNS ({@code dns.*}) and the relay map
 * ({@code derp.paths}, JSON files in the vendor's shape; the relay issue adds the full map-file rules and
 * the embedded relay).
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

    public static DERPMap derpMap(List<Path> files) {
        Map<Integer, DERPRegion> regions = new TreeMap<>();
        for (Path file : files) {
            try {
                DERPMap loaded = WireJson.read(Files.readAllBytes(file), DERPMap.class);
                if (loaded.regions() != null) {
                    regions.putAll(loaded.regions());
                }
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read DERP map " + file, e);
            }
        }
        return new DERPMap(null, regions, false);
    }
}
