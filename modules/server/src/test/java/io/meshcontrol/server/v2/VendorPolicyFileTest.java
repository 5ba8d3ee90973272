package io.meshcontrol.server.v2;

import static io.meshcontrol.server.v2.VendorCalls.ok;
import static io.meshcontrol.server.v2.VendorCalls.refused;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.server.testing.TestServer;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/** The policy file through {@code /api/v2/tailnet/-/acl}: HuJSON kept as written, ETags, validation with tests. */
class VendorPolicyFileTest {

    private static final String POLICY = """
            // who may reach what
            {
              "groups": {"group:eng": ["odin@example.com"]},
              "acls": [
                {"action": "accept", "src": ["group:eng"], "dst": ["*:22"]}, // ssh only
              ],
              "tests": [{"src": "odin@example.com", "accept": ["100.64.0.1:22"]}],
            }
            """;
    private static final String FAILING = """
            {"acls": [{"action": "accept", "src": ["odin@example.com"], "dst": ["*:22"]}],
             "tests": [{"src": "odin@example.com", "accept": ["100.64.0.1:80"]}]}
            """;

    @TempDir
    Path folder;
    TestServer server;
    VendorCalls api;

    @BeforeEach
    void start() {
        server = TestServer.start(folder);
        api = VendorCalls.allAccess(server);
        VendorCalls.createUser(server, "odin", "odin@example.com");
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private HttpResponse<String> postHuJson(String path, String text, Map<String, String> extra) {
        Map<String, String> headers = new java.util.HashMap<>(extra);
        headers.put("Content-Type", "application/hujson");
        return api.send("POST", "/tailnet/-" + path, text, headers);
    }

    @Test
    void huJsonComesBackAsWrittenWithAnETagAndAsJsonWhenAskedFor() {
        HttpResponse<String> saved = postHuJson("/acl", POLICY, Map.of("If-Match", "\"ts-default\""));
        assertEquals(200, saved.statusCode(), saved.body());
        HttpResponse<String> raw = api.send("GET", "/tailnet/-/acl", null, Map.of("Accept", "application/hujson"));
        assertEquals(POLICY, raw.body(), "comments and trailing commas kept");
        String etag = raw.headers().firstValue("ETag").orElseThrow();
        assertTrue(etag.startsWith("\"") && etag.endsWith("\"") && etag.length() > 10, etag);
        JsonNode json = ok(api.send("GET", "/tailnet/-/acl", null, Map.of("Accept", "application/json")));
        assertEquals("group:eng", json.path("acls").get(0).path("src").get(0).asString());
    }

    @Test
    void detailsGivesThePolicyAsBase64WithItsWarningsAndErrors() {
        assertEquals(200, postHuJson("/acl", POLICY, Map.of()).statusCode());
        HttpResponse<String> answer = api.get("/tailnet/-/acl?details=1");
        JsonNode details = ok(answer);
        assertEquals(POLICY, new String(java.util.Base64.getDecoder().decode(details.path("acl").asString()),
                java.nio.charset.StandardCharsets.UTF_8));
        assertTrue(details.path("warnings").isArray() && details.path("warnings").isEmpty());
        assertTrue(details.has("errors") && details.path("errors").isNull());
        assertTrue(answer.headers().firstValue("ETag").isPresent());
        refused(VendorCalls.scoped(server, "dns:read").get("/tailnet/-/acl?details=1"), 403, "policy_file:read");
    }

    @Test
    void previewListsTheRulesAndGrantsThatApplyToAUserOrAnIpPortWithTheirLines() {
        String policy = """
                // preview
                {"groups": {"group:eng": ["odin@example.com"]}, "hosts": {"db": "100.64.5.5"},
                 "tagOwners": {"tag:gw": ["odin@example.com"]},
                 "acls": [{"action": "accept", "src": ["group:eng"], "dst": ["*:22"]},
                          {"action": "accept", "src": ["thor@example.com"], "dst": ["db:5432,6000-6010"]},
                          {"action": "accept", "src": ["*"], "dst": ["db:*"]}],
                 "grants": [
                   // through the gateway
                   {"src": ["odin@example.com"], "dst": ["db"], "ip": ["tcp:6005", "443"], "via": ["tag:gw"]},
                 ]}""";
        JsonNode forOdin = ok(postHuJson("/acl/preview?type=user&previewFor=odin@example.com", policy, Map.of()));
        assertEquals("user", forOdin.path("type").asString());
        assertEquals("odin@example.com", forOdin.path("previewFor").asString());
        JsonNode matches = forOdin.path("matches");
        assertEquals(3, matches.size(), forOdin.toString());
        assertEquals("group:eng", matches.get(0).path("users").get(0).asString());
        assertEquals("*:22", matches.get(0).path("ports").get(0).asString());
        assertEquals(4, matches.get(0).path("lineNumber").asInt());
        assertFalse(matches.get(0).has("via"), "rules have no via");
        assertEquals("*", matches.get(1).path("users").get(0).asString());
        assertEquals(6, matches.get(1).path("lineNumber").asInt());
        assertEquals("[\"db:6005\",\"db:443\"]", matches.get(2).path("ports").toString());
        assertEquals("[\"tag:gw\"]", matches.get(2).path("via").toString());
        assertEquals(9, matches.get(2).path("lineNumber").asInt());

        JsonNode toDb = ok(postHuJson("/acl/preview?type=ipport&previewFor=100.64.5.5:6005", policy, Map.of()));
        assertEquals("ipport", toDb.path("type").asString());
        assertEquals("100.64.5.5:6005", toDb.path("previewFor").asString());
        assertEquals(3, toDb.path("matches").size(), toDb.toString());
        assertEquals("db:5432,6000-6010", toDb.path("matches").get(0).path("ports").get(0).asString());
        assertEquals(5, toDb.path("matches").get(0).path("lineNumber").asInt());
        assertEquals("db:*", toDb.path("matches").get(1).path("ports").get(0).asString());
        assertEquals(9, toDb.path("matches").get(2).path("lineNumber").asInt());
        assertEquals(1, ok(postHuJson("/acl/preview?type=ipport&previewFor=100.64.5.5:80", policy, Map.of()))
                .path("matches").size());

        refused(postHuJson("/acl/preview?type=colour&previewFor=x", policy, Map.of()), 400, "type");
        refused(postHuJson("/acl/preview?type=ipport&previewFor=100.64.5.5", policy, Map.of()), 400, "ip:port");
        refused(postHuJson("/acl/preview?type=user", policy, Map.of()), 400, "previewFor");
        refused(VendorCalls.scoped(server, "dns:read").post("/tailnet/-/acl/preview?type=user&previewFor=odin@example.com",
                policy), 403, "policy_file:read");
    }

    @Test
    void tsDefaultMatchesOnlyTheDefaultPolicyAndAStaleETagIs412() {
        assertEquals(200, postHuJson("/acl", POLICY, Map.of("If-Match", "\"ts-default\"")).statusCode());
        refused(postHuJson("/acl", POLICY, Map.of("If-Match", "\"ts-default\"")), 412, "changed since it was read");
        String etag = api.get("/tailnet/-/acl").headers().firstValue("ETag").orElseThrow();
        HttpResponse<String> conditional = postHuJson("/acl", POLICY.replace("ssh only", "ssh, nothing else"), Map.of("If-Match", etag));
        assertEquals(200, conditional.statusCode(), conditional.body());
        assertNotEquals(etag, conditional.headers().firstValue("ETag").orElseThrow());
        refused(postHuJson("/acl", POLICY, Map.of("If-Match", etag)), 412, "changed since it was read");
    }

    @Test
    void anEmptyBodyRestoresTheDefaultPolicy() {
        postHuJson("/acl", POLICY, Map.of());
        assertEquals(200, postHuJson("/acl", "", Map.of()).statusCode());
        assertEquals(200, postHuJson("/acl", POLICY, Map.of("If-Match", "\"ts-default\"")).statusCode(),
                "the default is in force again");
    }

    @Test
    void failingTestsRefuseTheSaveWithTheVendorsDataShape() {
        HttpResponse<String> refused = postHuJson("/acl", FAILING, Map.of());
        assertEquals(400, refused.statusCode());
        JsonNode body = VendorCalls.JSON.readTree(refused.body());
        assertEquals("test(s) failed", body.path("message").asString());
        assertEquals("odin@example.com", body.path("data").get(0).path("user").asString());
        assertTrue(body.path("data").get(0).path("errors").get(0).asString().contains("100.64.0.1:80"));
    }

    @Test
    void validateAnswers200WithAnEmptyObjectOrTheProblems() {
        assertEquals(0, ok(postHuJson("/acl/validate", POLICY, Map.of())).size(), "valid: {}");
        JsonNode failing = ok(postHuJson("/acl/validate", FAILING, Map.of()));
        assertEquals("test(s) failed", failing.path("message").asString());
        assertFalse(ok(postHuJson("/acl/validate", "{\"acls\": [", Map.of())).path("message").asString().isEmpty());
        postHuJson("/acl", POLICY, Map.of());
        JsonNode tests = ok(postHuJson("/acl/validate", "[{\"src\": \"odin@example.com\", \"deny\": [\"100.64.0.1:22\"]}]",
                Map.of()));
        assertEquals("test(s) failed", tests.path("message").asString(), "a list of tests runs against the policy");
    }

    @Test
    void aPolicyNestedTooDeeplyIsRefusedInTheProductsWords() {
        String deep = "{\"tests\": " + "[".repeat(600) + "]".repeat(600) + "}";
        refused(postHuJson("/acl", deep, Map.of()), 400, "nested too deeply");
        String message = ok(postHuJson("/acl/validate", deep, Map.of())).path("message").asString();
        assertTrue(message.contains("nested too deeply") && !message.contains("StreamReadConstraints"), message);
    }

    @Test
    void readingNeedsPolicyFileReadAndWritingPolicyFile() {
        VendorCalls reader = VendorCalls.scoped(server, "policy_file:read");
        assertEquals(200, reader.get("/tailnet/-/acl").statusCode());
        refused(reader.send("POST", "/tailnet/-/acl", POLICY, Map.of("Content-Type", "application/hujson")), 403,
                "policy_file");
    }
}
