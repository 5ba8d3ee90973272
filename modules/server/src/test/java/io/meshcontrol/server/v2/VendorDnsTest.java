package io.meshcontrol.server.v2;

import static io.meshcontrol.server.v2.VendorCalls.ok;
import static io.meshcontrol.server.v2.VendorCalls.refused;
import static io.meshcontrol.server.v2.VendorDevicesTest.texts;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.core.wire.DNSConfig;
import io.meshcontrol.core.wire.DNSResolver;
import io.meshcontrol.server.testing.TestServer;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/** DNS through {@code /api/v2}: every resource reads and writes the one DNS setting that every map carries. */
class VendorDnsTest {

    @TempDir
    Path folder;
    TestServer server;
    VendorCalls api;

    @BeforeEach
    void start() {
        server = TestServer.in(folder).set("dns.nameservers.global", "9.9.9.9").start();
        api = VendorCalls.allAccess(server);
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private DNSConfig mapDns() {
        return server.server.mapContext().dnsConfig();
    }

    @Test
    void theConfigurationFileIsInForceUntilTheApiSavesDns() {
        assertEquals(List.of("9.9.9.9"), texts(ok(api.get("/tailnet/-/dns/nameservers")).path("dns")));
        ok(api.post("/tailnet/-/dns/nameservers", "{\"dns\":[\"8.8.8.8\",\"1.1.1.1\"]}"));
        assertEquals(List.of("1.1.1.1", "8.8.8.8"), texts(ok(api.get("/tailnet/-/dns/nameservers")).path("dns")),
                "sorted by address");
        assertEquals(List.of(DNSResolver.at("8.8.8.8"), DNSResolver.at("1.1.1.1")), mapDns().fallbackResolvers(),
                "every map carries the new nameservers");
        refused(api.post("/tailnet/-/dns/nameservers", "{\"dns\":[\"not-an-address\"]}"), 400, "not-an-address");
    }

    @Test
    void magicDnsIsTheConfigurationsRepeatingItSucceedsChangingItIs400() {
        assertTrue(ok(api.get("/tailnet/-/dns/preferences")).path("magicDNS").asBoolean());
        ok(api.post("/tailnet/-/dns/preferences", "{\"magicDNS\":true}"));
        refused(api.post("/tailnet/-/dns/preferences", "{\"magicDNS\":false}"), 400, "magicDNS");
        refused(api.post("/tailnet/-/dns/configuration", "{\"preferences\":{}}"), 400, "magicDNS");
    }

    @Test
    void searchPathsAndSplitDnsReachTheMap() {
        ok(api.post("/tailnet/-/dns/searchpaths", "{\"searchPaths\":[\"corp.example\"]}"));
        assertEquals(List.of("corp.example"), texts(ok(api.get("/tailnet/-/dns/searchpaths")).path("searchPaths")));
        assertEquals(List.of("mesh.test", "corp.example"), mapDns().domains());

        JsonNode patched = ok(api.patch("/tailnet/-/dns/split-dns", "{\"a.example\":[\"10.0.0.53\"],\"b.example\":[\"10.0.0.54\"]}"));
        assertEquals(List.of("10.0.0.53"), texts(patched.path("a.example")));
        JsonNode removed = ok(api.patch("/tailnet/-/dns/split-dns", "{\"a.example\":[],\"b.example\":null}"));
        assertEquals(0, removed.size(), "[] and null remove a domain");
        ok(api.patch("/tailnet/-/dns/split-dns", "{\"c.example\":[\"10.0.0.55\"]}"));
        assertEquals(Map.of("c.example", List.of(DNSResolver.at("10.0.0.55"))), mapDns().routes());
        ok(api.put("/tailnet/-/dns/split-dns", "{}"));
        assertEquals(0, ok(api.get("/tailnet/-/dns/split-dns")).size(), "PUT replaces everything");
    }

    @Test
    void theConfigurationResourceReplacesEverythingWithExitNodeAndOverrideApplied() {
        ok(api.post("/tailnet/-/dns/configuration", """
                {"nameservers":[{"address":"1.1.1.1","useWithExitNode":true}],
                 "splitDNS":{"corp.example":[{"address":"10.0.0.53"}]},
                 "searchPaths":["a.example"],"preferences":{"overrideLocalDNS":true,"magicDNS":true}}"""));
        JsonNode read = ok(api.get("/tailnet/-/dns/configuration"));
        assertTrue(read.path("nameservers").get(0).path("useWithExitNode").asBoolean());
        assertTrue(read.path("preferences").path("overrideLocalDNS").asBoolean());
        assertEquals("10.0.0.53", read.path("splitDNS").path("corp.example").get(0).path("address").asString());
        assertEquals(List.of(new DNSResolver("1.1.1.1", null, true)), mapDns().resolvers());

        ok(api.post("/tailnet/-/dns/configuration", "{\"preferences\":{\"magicDNS\":true}}"));
        JsonNode cleared = ok(api.get("/tailnet/-/dns/configuration"));
        assertEquals(0, cleared.path("nameservers").size(), "absent means empty");
        assertEquals(0, cleared.path("splitDNS").size());
    }

    @Test
    void dnsNeedsTheDnsScopes() {
        VendorCalls reader = VendorCalls.scoped(server, "dns:read");
        ok(reader.get("/tailnet/-/dns/configuration"));
        refused(reader.post("/tailnet/-/dns/searchpaths", "{\"searchPaths\":[]}"), 403, "dns");
    }
}
