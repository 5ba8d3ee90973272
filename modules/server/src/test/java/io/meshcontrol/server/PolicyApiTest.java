package io.meshcontrol.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.api.ApiException;
import io.meshcontrol.api.ApiJson;
import io.meshcontrol.api.MeshClient;
import io.meshcontrol.api.PolicyCheck;
import io.meshcontrol.api.UserRequest;
import io.meshcontrol.server.testing.TestServer;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/** {@code /api/v1/policy}: checking without saving, and the refusal to save in file mode, over HTTP. */
class PolicyApiTest {

    private static final String POLICY = """
            {
              "tagOwners": {"tag:web": []},
              "grants": [{"src": ["alice@example.com"], "dst": ["tag:web"], "ip": ["tcp:443"]}],
              "tests": [{"src": "alice@example.com", "accept": ["tag:web:443"], "deny": ["tag:web:22"]}],
            }
            """;

    @TempDir
    Path folder;
    TestServer server;
    MeshClient admin;

    @BeforeEach
    void start() {
        server = TestServer.start(folder);
        admin = server.adminClient();
        admin.createUser(new UserRequest("alice", null, "alice@example.com", "member"));
    }

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void checkRunsTheTestsAndSavesNothing() {
        String before = admin.policy().policy();
        assertEquals(new PolicyCheck(true, 1, 0), admin.checkPolicy(POLICY));
        assertEquals(before, admin.policy().policy());

        HttpResponse<String> failing = server.request("POST", "/api/v1/policy/check", server.localToken(),
                "{\"policy\": " + quoted(POLICY.replace("\"deny\": [\"tag:web:22\"]", "\"deny\": [\"tag:web:443\"]")) + "}");
        assertEquals(400, failing.statusCode());
        assertTrue(failing.body().contains("\"detail\":\"test(s) failed: deny \\\"tag:web:443\\\" from alice@example.com: "
                + "got accept\""), failing.body());

        HttpResponse<String> invalid = server.request("POST", "/api/v1/policy/check", server.localToken(),
                "{\"policy\": " + quoted("{\"grants\": [{\"src\": [\"*\"], \"dst\": [\"10.0.0.0/8\"], \"ip\": [\"*\"],"
                        + " \"via\": [\"group:x\"]}]}") + "}");
        assertEquals(400, invalid.statusCode());
        assertTrue(invalid.body().contains("\"detail\":\"via can only be a tag\""), invalid.body());
    }

    @Test
    void inFileModeTheApiReadsButDoesNotSave() throws Exception {
        Path file = folder.resolve("policy.hujson");
        Files.writeString(file, POLICY);
        server.network.policies().useFile(file);
        assertEquals(POLICY, admin.policy().policy());
        HttpResponse<String> refused = server.request("PUT", "/api/v1/policy", server.localToken(),
                "{\"policy\": \"{}\"}");
        assertEquals(409, refused.statusCode());
        assertTrue(refused.body().contains("the policy is read from " + file + " (policy.mode: file)"), refused.body());
        assertEquals(POLICY, admin.policy().policy());
        assertEquals(1, admin.checkPolicy(POLICY).tests(), "checking still works");
    }

    @Test
    void aPolicyNestedTooDeeplyIsRefusedWith400OnSaveAndOnCheck() {
        String deep = "{\"tests\": " + "[".repeat(600) + "]".repeat(600) + "}";
        String auditor = admin.createApiKey(new io.meshcontrol.api.ApiKeyRequest(null, java.util.List.of("all:read"),
                "auditor", "24h")).secret();
        for (var call : java.util.List.of(
                server.request("PUT", "/api/v1/policy", server.localToken(), "{\"policy\": " + quoted(deep) + "}"),
                server.request("POST", "/api/v1/policy/check", auditor, "{\"policy\": " + quoted(deep) + "}"))) {
            assertEquals(400, call.statusCode(), call.body());
            assertTrue(call.body().contains("nested too deeply"), call.body());
        }
    }

    @Test
    void anUnknownTagIsRefusedWithItsLineAndColumnInTheProblem() {
        String text = "{\n  \"acls\": [\n    {\"action\": \"accept\", \"src\": [\"*\"], \"dst\": [\"tag:gone:22\"]},\n  ],\n}";
        for (String call : new String[] {"PUT /api/v1/policy", "POST /api/v1/policy/check"}) {
            String[] route = call.split(" ");
            HttpResponse<String> refused = server.request(route[0], route[1], server.localToken(),
                    "{\"policy\": " + quoted(text) + "}");
            assertEquals(400, refused.statusCode(), call);
            assertEquals("application/problem+json", refused.headers().firstValue("Content-Type").orElseThrow());
            JsonNode problem = ApiJson.mapper(false).readTree(refused.body());
            assertEquals("dst=\"tag:gone\": tag not found: \"tag:gone\"", problem.path("detail").stringValue(), call);
            assertEquals(3, problem.path("line").intValue(), refused.body());
            assertEquals(48, problem.path("column").intValue(), refused.body());
        }
        ApiException viaClient = assertThrows(ApiException.class, () -> admin.setPolicy(text));
        assertEquals(3, viaClient.problem().line());
        assertTrue(viaClient.getMessage().endsWith("(line 3, column 48)"), viaClient.getMessage());
    }

    @Test
    void aSyntaxErrorIsPlacedAndWordedWithoutTheParsersTerms() {
        HttpResponse<String> refused = server.request("POST", "/api/v1/policy/check", server.localToken(),
                "{\"policy\": " + quoted("{\n  \"acls\": [\n    {\"action\": accept}]}") + "}");
        assertEquals(400, refused.statusCode());
        JsonNode problem = ApiJson.mapper(false).readTree(refused.body());
        assertEquals(3, problem.path("line").intValue(), refused.body());
        assertTrue(problem.path("detail").stringValue().contains("unexpected word \"accept\""), refused.body());
        assertTrue(!refused.body().contains("Unrecognized token"), refused.body());
    }

    private static String quoted(String text) {
        return "\"" + text.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n") + "\"";
    }
}
