package io.meshcontrol.server.v2;

import static io.meshcontrol.server.v2.VendorCalls.ok;
import static io.meshcontrol.server.v2.VendorCalls.refused;
import static io.meshcontrol.server.v2.VendorDevicesTest.texts;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.core.wire.DNSConfig;
import io.meshcontrol.core.wire.DNSResolver;
import io.meshcontrol.server.testing.TestServer;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
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
        assertEquals(List.of("8.8.8.8", "1.1.1.1"), texts(ok(api.get("/tailnet/-/dns/nameservers")).path("dns")),
                "in the order given");
        assertEquals(List.of(DNSResolver.at("8.8.8.8"), DNSResolver.at("1.1.1.1")), mapDns().fallbackResolvers(),
                "every map carries the new nameservers");
        refused(api.post("/tailnet/-/dns/nameservers", "{\"dns\":[\"not-an-address\"]}"), 400, "not-an-address");
    }

    @Test
    void resolversAreAnsweredInTheOrderGiven() {
        // Terraform's nameservers are a list: read back in another order, they would be a change in every plan.
        assertEquals(List.of("9.9.9.9", "1.1.1.1"), texts(ok(api.post("/tailnet/-/dns/nameservers",
                "{\"dns\":[\"9.9.9.9\",\"1.1.1.1\"]}")).path("dns")));
        assertEquals(List.of("9.9.9.9", "1.1.1.1"), texts(ok(api.get("/tailnet/-/dns/nameservers")).path("dns")));
        JsonNode split = ok(api.patch("/tailnet/-/dns/split-dns", "{\"corp.example\":[\"10.0.0.54\",\"10.0.0.53\"]}"));
        assertEquals(List.of("10.0.0.54", "10.0.0.53"), texts(split.path("corp.example")));
        assertEquals(List.of("10.0.0.54", "10.0.0.53"), texts(ok(api.get("/tailnet/-/dns/split-dns")).path("corp.example")));
        JsonNode configuration = ok(api.get("/tailnet/-/dns/configuration"));
        assertEquals(List.of("9.9.9.9", "1.1.1.1"), addresses(configuration.path("nameservers")));
        assertEquals(List.of("10.0.0.54", "10.0.0.53"), addresses(configuration.path("splitDNS").path("corp.example")));
    }

    private static List<String> addresses(JsonNode resolvers) {
        List<String> addresses = new ArrayList<>();
        resolvers.forEach(r -> addresses.add(r.path("address").asString()));
        return addresses;
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
    void parallelChangesOfDifferentPartsAllStay() throws Exception {
        // What OpenTofu does with nameservers, search paths and split DNS resources in one configuration.
        int domains = 16;
        List<Callable<HttpResponse<String>>> calls = new ArrayList<>();
        calls.add(() -> api.post("/tailnet/-/dns/nameservers", "{\"dns\":[\"9.9.9.9\",\"1.1.1.1\"]}"));
        calls.add(() -> api.post("/tailnet/-/dns/searchpaths", "{\"searchPaths\":[\"corp.example\"]}"));
        for (int i = 0; i < domains; i++) {
            String body = "{\"d" + i + ".example\":[\"10.0.0." + (i + 1) + "\"]}";
            calls.add(() -> api.patch("/tailnet/-/dns/split-dns", body));
        }
        try (ExecutorService callers = Executors.newVirtualThreadPerTaskExecutor()) {
            for (Future<HttpResponse<String>> answer : callers.invokeAll(calls)) {
                ok(answer.get());
            }
        }

        JsonNode read = ok(api.get("/tailnet/-/dns/configuration"));
        assertEquals(List.of("9.9.9.9", "1.1.1.1"), addresses(read.path("nameservers")));
        assertEquals(List.of("corp.example"), texts(read.path("searchPaths")));
        for (int i = 0; i < domains; i++) {
            assertEquals("10.0.0." + (i + 1), read.path("splitDNS").path("d" + i + ".example").path(0)
                    .path("address").asString(), "split DNS for d" + i + ".example");
        }
    }

    @Test
    void dnsNeedsTheDnsScopes() {
        VendorCalls reader = VendorCalls.scoped(server, "dns:read");
        ok(reader.get("/tailnet/-/dns/configuration"));
        refused(reader.post("/tailnet/-/dns/searchpaths", "{\"searchPaths\":[]}"), 403, "dns");
    }
}
