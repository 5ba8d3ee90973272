package io.meshcontrol.server.control;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.core.config.ConfigLoader;
import io.meshcontrol.core.config.ConfigRequest;
import io.meshcontrol.core.config.MeshConfig;
import io.meshcontrol.core.netmap.context.MapDns;
import io.meshcontrol.core.state.NetworkOptions;
import io.meshcontrol.core.wire.DNSConfig;
import io.meshcontrol.core.wire.DNSResolver;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the configuration puts into every map: DNS (MagicDNS, global and split nameservers) */
class MapDnsTest {

    @TempDir
    Path folder;

    private MeshConfig load(String yaml) throws Exception {
        Path file = folder.resolve("config.yaml");
        Files.writeString(file, yaml);
        return ConfigLoader.load(new ConfigRequest(file, Map.of(), folder, folder)).config();
    }

    @Test
    void dnsCarriesMagicDnsGlobalAndSplitNameservers() throws Exception {
        MeshConfig config = load("""
                dns:
                  base_domain: mesh.example
                  magic_dns: true
                  search_domains: [corp.example]
                  nameservers:
                    global: [1.1.1.1, "https://dns.example/dns-query"]
                    split:
                      corp.example: [10.0.0.53]
                """);
        DNSConfig dns = MapDns.of(NetworkOptions.from(config).dns(), config.dns().baseDomain(), List.of());
        assertTrue(dns.proxied());
        assertEquals(List.of("mesh.example", "corp.example"), dns.domains());
        assertEquals(List.of(), dns.resolvers(), "without override_local_dns nodes keep their own resolvers");
        assertEquals(List.of(DNSResolver.at("1.1.1.1"), DNSResolver.at("https://dns.example/dns-query")),
                dns.fallbackResolvers());
        assertEquals(Map.of("corp.example", List.of(DNSResolver.at("10.0.0.53"))), dns.routes());
    }

    @Test
    void overridingLocalDnsMakesTheNameserversTheNodesResolvers() throws Exception {
        MeshConfig config = load("""
                dns:
                  override_local_dns: true
                  nameservers:
                    global: [1.1.1.1]
                """);
        DNSConfig dns = MapDns.of(NetworkOptions.from(config).dns(), config.dns().baseDomain(), List.of());
        assertEquals(List.of(DNSResolver.at("1.1.1.1")), dns.resolvers());
        assertEquals(List.of(), dns.fallbackResolvers());
    }

    @Test
    void extraRecordsFromTheFileAreAnsweredByMagicDns() throws Exception {
        try (var server = io.meshcontrol.server.testing.TestServer.in(folder)
                .set("dns.extra_records", "[{\"name\": \"grafana.mesh.test\", \"type\": \"A\","
                        + " \"value\": \"100.64.0.9\"}, {\"name\": \"wiki.mesh.test\", \"type\": \"AAAA\", \"value\": \"fd7a:115c:a1e0::9\"}]")
                .start()) {
            assertEquals(List.of(new io.meshcontrol.core.wire.DNSRecord("grafana.mesh.test", "A", "100.64.0.9"),
                    new io.meshcontrol.core.wire.DNSRecord("wiki.mesh.test", "AAAA", "fd7a:115c:a1e0::9")),
                    server.server.mapContext().dnsConfig().extraRecords());
        }
    }
}
