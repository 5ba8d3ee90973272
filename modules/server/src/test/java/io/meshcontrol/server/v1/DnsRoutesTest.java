package io.meshcontrol.server.v1;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.api.ApiJson;
import io.meshcontrol.api.ApiKeyRequest;
import io.meshcontrol.core.wire.DNSConfig;
import io.meshcontrol.core.wire.DNSResolver;
import io.meshcontrol.server.testing.TestServer;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** {@code /api/v1/dns}: the one DNS setting /api/v2 edits too, its refusals naming the field, its scopes. */
class DnsRoutesTest {

    private static final JsonMapper JSON = ApiJson.mapper(false);

    @TempDir
    Path folder;
    private TestServer server;
    private String admin;

    @BeforeEach
    void start() {
        server = TestServer.in(folder).set("dns.nameservers.global", "9.9.9.9").set("dns.base_domain", "mesh.test")
                .start();
        admin = server.localToken();
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private JsonNode ok(String method, String body) {
        HttpResponse<String> response = server.request(method, "/api/v1/dns", admin, body);
        assertEquals(200, response.statusCode(), response.body());
        return JSON.readTree(response.body());
    }

    private String refused(String body) {
        HttpResponse<String> response = server.request("PUT", "/api/v1/dns", admin, body);
        assertEquals(400, response.statusCode(), response.body());
        assertTrue(response.headers().firstValue("Content-Type").orElseThrow().startsWith("application/problem+json"));
        return JSON.readTree(response.body()).get("detail").asString();
    }

    private DNSConfig mapDns() {
        return server.server.mapContext().dnsConfig();
    }

    @Test
    void theConfigurationFileIsShownWithWhatOnlyItSets() {
        JsonNode dns = ok("GET", null);
        assertTrue(dns.get("magicDns").asBoolean());
        assertEquals("mesh.test", dns.get("baseDomain").asString());
        assertEquals("9.9.9.9", dns.get("nameservers").get(0).get("address").asString());
        assertEquals(0, dns.get("splitDns").size());
        assertEquals(0, dns.get("searchPaths").size());
    }

    @Test
    void aSaveReachesTheMapAndApiV2ReadsTheSameSetting() {
        JsonNode saved = ok("PUT", """
                {"magicDns": true, "baseDomain": "mesh.test",
                 "nameservers": [{"address": "1.1.1.1"}, {"address": "https://dns.example/dns-query", "useWithExitNode": true}],
                 "splitDns": {"Corp.Example.": [{"address": "10.0.0.53"}]},
                 "searchPaths": ["corp.example"]}""");
        assertEquals("corp.example", saved.get("splitDns").propertyNames().iterator().next(), "kept as a domain");
        assertTrue(saved.get("nameservers").get(1).get("useWithExitNode").asBoolean());
        assertEquals(saved, ok("GET", null), "read back as saved");

        assertEquals(Map.of("corp.example", List.of(DNSResolver.at("10.0.0.53"))), mapDns().routes());
        assertEquals(List.of("mesh.test", "corp.example"), mapDns().domains());
        HttpResponse<String> v2 = server.request("GET", "/api/v2/tailnet/-/dns/nameservers", admin, null);
        assertEquals(200, v2.statusCode(), v2.body());
        assertTrue(v2.body().contains("1.1.1.1") && !v2.body().contains("9.9.9.9"), v2.body());
    }

    @Test
    void nameserversKeepTheOrderGiven() {
        JsonNode saved = ok("PUT", """
                {"nameservers": [{"address": "9.9.9.9"}, {"address": "1.1.1.1"}],
                 "splitDns": {"corp.example": [{"address": "10.0.0.54"}, {"address": "10.0.0.53"}]}}""");
        assertEquals(saved, ok("GET", null));
        assertEquals("1.1.1.1", saved.get("nameservers").get(1).get("address").asString());
        assertEquals("10.0.0.53", saved.get("splitDns").get("corp.example").get(1).get("address").asString());
        HttpResponse<String> v2 = server.request("GET", "/api/v2/tailnet/-/dns/nameservers", admin, null);
        assertEquals("[\"9.9.9.9\",\"1.1.1.1\"]", JSON.readTree(v2.body()).get("dns").toString(), "/api/v2 too");
    }

    @Test
    void aFieldLeftOutKeepsItsValue() {
        ok("PUT", "{\"searchPaths\": [\"corp.example\"]}");
        JsonNode dns = ok("PUT", "{\"splitDns\": {\"lab.example\": [{\"address\": \"10.1.0.53\"}]}}");
        assertEquals("9.9.9.9", dns.get("nameservers").get(0).get("address").asString());
        assertEquals("corp.example", dns.get("searchPaths").get(0).asString());
        assertEquals("10.1.0.53", dns.get("splitDns").get("lab.example").get(0).get("address").asString());
    }

    @Test
    void aRefusalNamesTheFieldAndChangesNothing() {
        JsonNode before = ok("GET", null);
        assertEquals("nameservers[1]: invalid nameserver \"banana\": use an IP address or an https:// DNS-over-HTTPS "
                + "URL", refused("{\"nameservers\": [{\"address\": \"1.1.1.1\"}, {\"address\": \"banana\"}]}"));
        assertTrue(refused("{\"splitDns\": {\"corp.example\": [{\"address\": \"10.0.0.53\"}, {\"address\": \"x\"}]}}")
                .startsWith("splitDns[\"corp.example\"][1]: invalid nameserver \"x\""));
        assertEquals("splitDns[\"corp.example\"]: give at least one nameserver for the domain",
                refused("{\"splitDns\": {\"corp.example\": []}}"));
        assertEquals("splitDns: invalid domain \"not a domain\"",
                refused("{\"splitDns\": {\"not a domain\": [{\"address\": \"10.0.0.53\"}]}}"));
        assertEquals("searchPaths[1]: invalid domain \"-bad-\"", refused("{\"searchPaths\": [\"ok.example\", \"-bad-\"]}"));
        assertTrue(refused("{\"baseDomain\": \"other.test\"}").startsWith("baseDomain is set in the configuration file"));
        assertTrue(refused("{\"magicDns\": false}").startsWith("magicDNS is set in the configuration file"));
        assertEquals(before, ok("GET", null), "nothing changed");
    }

    @Test
    void readingNeedsDnsReadAndChangingNeedsDnsBeforeTheBodyIsJudged() {
        String reader = server.adminClient().createApiKey(new ApiKeyRequest(null, List.of("dns:read"), "r", null))
                .secret();
        assertEquals(200, server.request("GET", "/api/v1/dns", reader, null).statusCode());
        assertEquals(403, server.request("PUT", "/api/v1/dns", reader, "{\"nameservers\": [{\"address\": \"x\"}]}")
                .statusCode());
        String writer = server.adminClient().createApiKey(new ApiKeyRequest(null, List.of("dns"), "w", null)).secret();
        assertEquals(200, server.request("PUT", "/api/v1/dns", writer, "{\"searchPaths\": []}").statusCode());
    }
}
