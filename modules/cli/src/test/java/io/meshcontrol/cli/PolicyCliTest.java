package io.meshcontrol.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.api.ApiJson;
import io.meshcontrol.server.testing.TestServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/** {@code svc policy check} against a server and {@code svc policy simulate} offline. */
class PolicyCliTest {

    private static final String NETWORK = """
            {"users": [{"name": "odin", "email": "odin@example.com", "role": "owner"},
                       {"name": "thor", "email": "thor@example.com", "role": "member"}],
             "nodes": [{"name": "laptop", "user": "odin@example.com", "tags": [], "ipv4": "100.64.0.1",
                        "ipv6": "fd7a:115c:a1e0::1", "advertisedRoutes": [], "approvedRoutes": []},
                       {"name": "router", "tags": ["tag:router"], "ipv4": "100.64.0.2", "ipv6": "fd7a:115c:a1e0::2",
                        "advertisedRoutes": ["10.0.0.0/8"], "approvedRoutes": ["10.0.0.0/8"]},
                       {"name": "phone", "user": "thor@example.com", "tags": [], "ipv4": "100.64.0.3",
                        "ipv6": "fd7a:115c:a1e0::3", "advertisedRoutes": [], "approvedRoutes": []}]}
            """;
    private static final String POLICY = """
            {
              "tagOwners": {"tag:router": ["odin@example.com"]},
              // odin reaches the office subnet behind the router
              "grants": [{"src": ["odin@example.com"], "dst": ["10.1.0.0/16"], "ip": ["tcp:443"]}],
              "ssh": [{"action": "accept", "src": ["autogroup:member"], "dst": ["autogroup:self"],
                       "users": ["autogroup:nonroot"]}],
              "tests": [{"src": "odin@example.com", "accept": ["10.1.2.3:443"], "deny": ["10.1.2.3:22"]}],
            }
            """;

    @TempDir
    Path folder;

    private CliRun simulate(String policy, String... more) throws IOException {
        Files.writeString(folder.resolve("policy.hujson"), policy);
        Files.writeString(folder.resolve("nodes.json"), NETWORK);
        String[] args = new String[6 + more.length];
        System.arraycopy(new String[] {"policy", "simulate", "--policy", "policy.hujson", "--nodes", "nodes.json"}, 0,
                args, 0, 6);
        System.arraycopy(more, 0, args, 6, more.length);
        return CliRun.run(folder, Map.of(), args);
    }

    @Test
    void simulatePrintsWhatEachNodeWouldBeSent() throws IOException {
        CliRun run = simulate(POLICY);
        assertEquals(0, run.exitCode(), run.toString());
        JsonNode out = ApiJson.mapper(false).readTree(run.out());
        assertEquals(java.util.List.of("laptop", "router", "phone"), java.util.List.copyOf(out.propertyNames()));
        JsonNode router = out.path("router");
        assertEquals("[{\"SrcIPs\":[\"100.64.0.1\",\"fd7a:115c:a1e0::1\"],\"DstPorts\":[{\"IP\":\"10.1.0.0/16\","
                + "\"Ports\":{\"First\":443,\"Last\":443}}],\"IPProto\":[6]}]", router.path("packetFilter").toString(),
                "the router serving the subnet enforces the grant");
        assertEquals("[\"laptop\"]", router.path("peers").toString());
        assertTrue(router.path("sshPolicy").isNull());
        assertTrue(router.path("capMap").has("https://tailscale.com/cap/ssh"));
        assertEquals("[\"router\"]", out.path("laptop").path("peers").toString());
        assertEquals("{\"*\":\"=\",\"root\":\"\"}",
                out.path("phone").path("sshPolicy").path("rules").get(0).path("sshUsers").toString());
        assertEquals("[]", out.path("phone").path("peers").toString());
    }

    @Test
    void simulateOneNode() throws IOException {
        CliRun run = simulate(POLICY, "--node", "laptop");
        assertEquals(0, run.exitCode(), run.toString());
        assertEquals(java.util.List.of("laptop"),
                java.util.List.copyOf(ApiJson.mapper(false).readTree(run.out()).propertyNames()));
        CliRun unknown = simulate(POLICY, "--node", "toaster");
        assertEquals(1, unknown.exitCode());
        assertEquals("svc: no node named \"toaster\" in the nodes file\n", unknown.err());
    }

    @Test
    void anInvalidPolicyExitsWithTheVendorsError() throws IOException {
        CliRun bad = simulate("{\"acls\": [{\"action\": \"accept\", \"src\": [\"tag:x\"], \"dst\": [\"*:*\"]}]}");
        assertEquals(1, bad.exitCode());
        assertEquals("", bad.out());
        assertEquals("svc: src=tag not found: \"tag:x\"\n", bad.err());
        CliRun failing = simulate(POLICY.replace("\"deny\": [\"10.1.2.3:22\"]", "\"deny\": [\"10.1.2.3:443\"]"));
        assertEquals(1, failing.exitCode());
        assertEquals("svc: test(s) failed: deny \"10.1.2.3:443\" from odin@example.com: got accept\n", failing.err());
    }

    @Test
    void aBadNetworkFileIsNamed() throws IOException {
        Files.writeString(folder.resolve("policy.hujson"), POLICY);
        Files.writeString(folder.resolve("nodes.json"), NETWORK.replace("\"100.64.0.3\"", "\"100.64.0\""));
        CliRun bad = CliRun.run(folder, Map.of(), "policy", "simulate", "--policy", "policy.hujson", "--nodes",
                "nodes.json");
        assertEquals(1, bad.exitCode());
        assertEquals("svc: nodes file: node \"phone\": ipv4 \"100.64.0\" is not an IP address\n", bad.err());
    }

    @Test
    void checkAsksTheServerAndSavesNothing() throws IOException {
        try (TestServer server = TestServer.start(folder.resolve("server"))) {
            Path config = CliRun.configFor(server, folder);
            assertEquals(0, CliRun.withConfig(folder, config, "users", "create", "--name", "odin", "--email",
                    "odin@example.com").exitCode());
            Files.writeString(folder.resolve("policy.hujson"), POLICY);
            CliRun checked = CliRun.withConfig(folder, config, "policy", "check", "--file", "policy.hujson");
            assertEquals(0, checked.exitCode(), checked.toString());
            assertEquals("policy is valid; 1 test and 0 SSH tests passed\n", checked.out());
            assertEquals("{}\n", CliRun.withConfig(folder, config, "policy", "get").out(), "nothing saved");
            Files.writeString(folder.resolve("policy.hujson"), "{\"grants\": [{\"src\": [\"*\"], \"dst\": [\"*\"]}]}");
            CliRun refused = CliRun.withConfig(folder, config, "policy", "check", "--file", "policy.hujson");
            assertEquals(1, refused.exitCode());
            assertEquals("svc: ip and app can not both be empty (HTTP 400)\n", refused.err());
        }
    }
}
