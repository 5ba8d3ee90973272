package io.meshcontrol.server;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.meshcontrol.api.ApiJson;
import io.meshcontrol.api.ApiKeyRequest;
import io.meshcontrol.api.MeshClient;
import io.meshcontrol.api.PolicyPreviewRequest;
import io.meshcontrol.api.UserRequest;
import io.meshcontrol.core.model.Node;
import io.meshcontrol.core.testing.AuthKey;
import io.meshcontrol.core.testing.Machine;
import io.meshcontrol.server.testing.TestServer;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A node's peers and packet filter ({@code /api/v1/node/{id}/peers}, {@code /packet-filter}) and the policy preview
 * ({@code /api/v1/policy/preview}) on a real policy: alice's laptop may reach the web server on port 22 only.
 */
class NodeAccessApiTest {

    private static final JsonMapper JSON = ApiJson.mapper(false);
    private static final String POLICY = """
            {
              "tagOwners": {"tag:web": ["alice@example.com"], "tag:db": ["alice@example.com"]},
              // the laptop reaches SSH on the web server, nothing else
              "acls": [{"action": "accept", "src": ["alice@example.com"], "dst": ["tag:web:22"]}],
            }
            """;
    private static final String ALL_PROTOCOLS = "tcp,udp,icmp,ipv6-icmp";

    @TempDir
    Path folder;
    private TestServer server;
    private MeshClient admin;
    private Node laptop;
    private Node web;
    private Node db;

    @BeforeEach
    void start() {
        server = TestServer.start(folder);
        admin = server.adminClient();
        admin.createUser(new UserRequest("alice", null, "alice@example.com", "member"));
        admin.setPolicy(POLICY);
        laptop = Machine.named("laptop").join(server.network, AuthKey.forUser("alice").create(server.network));
        web = Machine.named("web").join(server.network, AuthKey.forTags("tag:web").create(server.network));
        db = Machine.named("db").join(server.network, AuthKey.forTags("tag:db").create(server.network));
        server.network.presence().connected(web);
    }

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void aNodesPeersAreTheMachinesItsMapGivesIt() {
        JsonNode peers = get("/api/v1/node/" + laptop.id() + "/peers").get("peers");
        assertEquals(1, peers.size(), peers.toString());
        JsonNode peer = peers.get(0);
        assertEquals(Long.toString(web.id()), peer.get("id").asString());
        assertEquals("web", peer.get("name").asString());
        assertEquals(web.ipv4(), peer.get("ipv4").asString());
        assertEquals(web.ipv6(), peer.get("ipv6").asString());
        assertEquals(List.of("tag:web"), strings(peer.get("tags")));
        assertEquals(true, peer.get("online").asBoolean());
        assertEquals(List.of(), names(get("/api/v1/node/" + db.id() + "/peers").get("peers")),
                "no rule names the database: it has no peers");
        assertEquals(List.of("laptop"), names(get("/api/v1/node/" + web.id() + "/peers").get("peers")));
        assertEquals("alice", get("/api/v1/node/" + web.id() + "/peers").get("peers").get(0).get("user").asString());
    }

    @Test
    void aNodesPacketFilterSaysWhoMayReachItOnWhichPorts() {
        assertEquals(List.of("from " + laptop.ipv4() + "," + laptop.ipv6() + " to " + web.ipv4() + ":22,"
                        + web.ipv6() + ":22 " + ALL_PROTOCOLS),
                rules(get("/api/v1/node/" + web.id() + "/packet-filter").get("rules")),
                "the web server lets the laptop in on port 22 only");
        assertEquals(List.of(), rules(get("/api/v1/node/" + laptop.id() + "/packet-filter").get("rules")),
                "no one may reach the laptop");
    }

    @Test
    void thePreviewSaysWhatAMachineMayReachUnderTheSavedPolicyOrAnUnsavedOne() {
        JsonNode saved = post("/api/v1/policy/preview", new PolicyPreviewRequest(Long.toString(laptop.id()), null));
        assertEquals(List.of("web " + web.ipv4() + ":22," + web.ipv6() + ":22 " + ALL_PROTOCOLS), reach(saved));
        assertEquals("[{\"sources\":[\"alice@example.com\"],\"destinations\":[\"tag:web:22\"],\"line\":4,\"via\":[]}]",
                saved.get("rules").toString(), "the rule that gives it, with its line");

        String unsaved = POLICY.replace("\"dst\": [\"tag:web:22\"]", "\"dst\": [\"tag:web:22\", \"tag:db:5432\"],"
                + " \"proto\": \"tcp\"");
        JsonNode preview = post("/api/v1/policy/preview", new PolicyPreviewRequest(Long.toString(laptop.id()), unsaved));
        assertEquals(List.of("web " + web.ipv4() + ":22," + web.ipv6() + ":22 tcp",
                "db " + db.ipv4() + ":5432," + db.ipv6() + ":5432 tcp"), reach(preview));
        assertEquals(POLICY, admin.policy().policy(), "a preview saves nothing");
        assertEquals(List.of(), reach(post("/api/v1/policy/preview",
                new PolicyPreviewRequest(Long.toString(web.id()), unsaved))), "the web server reaches no one");
    }

    @Test
    void aBadPreviewIsRefusedNamingTheProblem() {
        HttpResponse<String> broken = server.request("POST", "/api/v1/policy/preview", server.localToken(),
                JSON.writeValueAsString(new PolicyPreviewRequest(Long.toString(laptop.id()), "{\"acls\": 1}")));
        assertEquals(400, broken.statusCode(), broken.body());
        HttpResponse<String> noNode = server.request("POST", "/api/v1/policy/preview", server.localToken(),
                "{\"policy\": \"{}\"}");
        assertEquals(400, noNode.statusCode(), noNode.body());
        assertEquals(true, noNode.body().contains("\\\"node\\\""), noNode.body());
        assertEquals(404, server.request("POST", "/api/v1/policy/preview", server.localToken(),
                "{\"node\": \"999999\"}").statusCode());
    }

    @Test
    void aMemberAskingForAnotherUsersMachineIsRefused() {
        String alices = admin.createApiKey(new ApiKeyRequest("alice", null, "alice", "24h")).secret();
        for (String path : List.of("/api/v1/node/" + web.id() + "/peers", "/api/v1/node/" + web.id()
                + "/packet-filter")) {
            HttpResponse<String> refused = server.request("GET", path, alices, null);
            assertEquals(404, refused.statusCode(), "not there for her: " + path + ": " + refused.body());
        }
        HttpResponse<String> preview = server.request("POST", "/api/v1/policy/preview", alices,
                JSON.writeValueAsString(new PolicyPreviewRequest(Long.toString(web.id()), null)));
        assertEquals(403, preview.statusCode(), preview.body());
        String auditor = admin.createApiKey(new ApiKeyRequest(null, List.of("all:read"), "auditor", "24h")).secret();
        assertEquals(200, server.request("GET", "/api/v1/node/" + web.id() + "/peers", auditor, null).statusCode(),
                "a reader of every node may");
    }

    private JsonNode get(String path) {
        HttpResponse<String> response = server.request("GET", path, server.localToken(), null);
        assertEquals(200, response.statusCode(), path + ": " + response.body());
        return JSON.readTree(response.body());
    }

    private JsonNode post(String path, Object body) {
        HttpResponse<String> response = server.request("POST", path, server.localToken(),
                JSON.writeValueAsString(body));
        assertEquals(200, response.statusCode(), path + ": " + response.body());
        return JSON.readTree(response.body());
    }

    /** Each reachable machine as "name address:ports,... protocols", one line per filter rule. */
    private static List<String> reach(JsonNode preview) {
        List<String> lines = new ArrayList<>();
        for (JsonNode machine : preview.get("reach")) {
            for (JsonNode rule : machine.get("rules")) {
                lines.add(machine.get("name").asString() + " " + destinations(rule) + " "
                        + String.join(",", strings(rule.get("protocols"))));
            }
        }
        return lines;
    }

    private static List<String> rules(JsonNode rules) {
        List<String> lines = new ArrayList<>();
        rules.forEach(rule -> lines.add("from " + String.join(",", strings(rule.get("sources"))) + " to "
                + destinations(rule) + " " + String.join(",", strings(rule.get("protocols")))));
        return lines;
    }

    private static String destinations(JsonNode rule) {
        List<String> destinations = new ArrayList<>();
        rule.get("destinations").forEach(d -> destinations.add(d.get("address").asString() + ":"
                + d.get("ports").asString()));
        return String.join(",", destinations);
    }

    private static List<String> names(JsonNode peers) {
        List<String> names = new ArrayList<>();
        peers.forEach(peer -> names.add(peer.get("name").asString()));
        return names;
    }

    private static List<String> strings(JsonNode array) {
        List<String> values = new ArrayList<>();
        array.forEach(value -> values.add(value.asString()));
        return values;
    }
}
