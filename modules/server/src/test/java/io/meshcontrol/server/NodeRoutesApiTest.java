package io.meshcontrol.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.api.ApiKeyRequest;
import io.meshcontrol.api.GlobalExitNodeRequest;
import io.meshcontrol.api.MeshClient;
import io.meshcontrol.api.NodeView;
import io.meshcontrol.api.PreAuthKeyRequest;
import io.meshcontrol.api.RoutesView;
import io.meshcontrol.api.UserRequest;
import io.meshcontrol.core.model.Node;
import io.meshcontrol.core.testing.Machine;
import io.meshcontrol.server.testing.TestServer;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** A node's routes through {@code /api/v1/node/{id}/routes} and the node views. */
class NodeRoutesApiTest {

    @TempDir
    Path folder;
    TestServer server;
    MeshClient admin;
    Node router;

    @BeforeEach
    void start() {
        server = TestServer.start(folder);
        admin = server.adminClient();
        admin.createUser(new UserRequest("odin", null, null, "it-admin"));
        String key = admin.createPreAuthKey(new PreAuthKeyRequest("odin", null, false, false, false, "", null))
                .secret();
        router = Machine.named("router").advertising("10.1.0.0/16", "0.0.0.0/0", "::/0").join(server.network, key);
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private String id() {
        return Long.toString(router.id());
    }

    @Test
    void advertisedRoutesWaitUntilApprovedAndAreServedWhileTheRouterIsOnline() {
        assertEquals(new RoutesView(List.of(), List.of("0.0.0.0/0", "10.1.0.0/16", "::/0"), List.of(), false, 0),
                admin.nodeRoutes(id()));

        RoutesView approved = admin.setNodeRoutes(id(), List.of("10.1.0.0/16", "0.0.0.0/0"));
        assertEquals(List.of("0.0.0.0/0", "10.1.0.0/16", "::/0"), approved.approved(), "the exit pair comes along");
        assertEquals(List.of("0.0.0.0/0", "::/0"), approved.serving(), "an offline router is primary for nothing");

        server.network.presence().connected(router);
        assertEquals(List.of("0.0.0.0/0", "10.1.0.0/16", "::/0"), admin.nodeRoutes(id()).serving());
        assertEquals(admin.nodeRoutes(id()), admin.node(id()).routes(), "node views carry the same routes");
        assertEquals(admin.nodeRoutes(id()), admin.nodes().getFirst().routes());

        assertEquals(new RoutesView(List.of(), List.of("0.0.0.0/0", "10.1.0.0/16", "::/0"), List.of(), false, 0),
                admin.setNodeRoutes(id(), List.of()), "an empty list clears");
    }

    @Test
    void aGlobalExitNodeIsMarkedWithAPriorityAndClearedThroughTheApi() {
        HttpResponse<String> marked = server.request("POST", "/api/v1/node/" + id() + "/global-exit-node",
                server.localToken(), null);
        assertEquals(200, marked.statusCode(), marked.body());
        RoutesView routes = admin.nodeRoutes(id());
        assertTrue(routes.globalExitNode(), "an empty body marks");
        assertEquals(List.of("0.0.0.0/0", "::/0"), routes.approved(), "marking approves the exit routes");

        RoutesView prioritized = admin.setGlobalExitNode(id(), new GlobalExitNodeRequest(null, 40));
        assertEquals(40, prioritized.exitNodePriority());
        assertEquals(prioritized, admin.node(id()).routes(), "the node view shows the mark");

        RoutesView cleared = admin.setGlobalExitNode(id(), new GlobalExitNodeRequest(false, null));
        assertFalse(cleared.globalExitNode());
        assertEquals(0, cleared.exitNodePriority(), "clearing resets the priority");
        assertEquals(List.of("0.0.0.0/0", "::/0"), cleared.approved(), "and keeps the approved routes");
    }

    @Test
    void aNodeAdvertisingNoExitRouteIsA400NamingItAndIsNotMarked() {
        String key = admin.createPreAuthKey(new PreAuthKeyRequest("odin", null, false, false, false, "", null))
                .secret();
        Node subnet = Machine.named("subnet").advertising("10.2.0.0/16").join(server.network, key);
        HttpResponse<String> response = server.request("POST", "/api/v1/node/" + subnet.id() + "/global-exit-node",
                server.localToken(), "{}");
        assertEquals(400, response.statusCode(), response.body());
        String detail = JsonMapper.builder().build().readTree(response.body()).get("detail").asString();
        assertTrue(detail.startsWith("node subnet advertises no exit route"), detail);
        assertFalse(admin.nodeRoutes(Long.toString(subnet.id())).globalExitNode());
        assertEquals(List.of(), admin.nodeRoutes(Long.toString(subnet.id())).approved());
    }

    @Test
    void aNegativeExitNodePriorityIsA400NamingItAndChangesNothing() {
        HttpResponse<String> response = server.request("POST", "/api/v1/node/" + id() + "/global-exit-node",
                server.localToken(), "{\"priority\": -3}");
        assertEquals(400, response.statusCode());
        assertTrue(response.body().contains("must be 0 or more, got -3"), response.body());
        assertFalse(admin.nodeRoutes(id()).globalExitNode());
        assertEquals(404, server.request("POST", "/api/v1/node/999999/global-exit-node", server.localToken(), "{}")
                .statusCode());
    }

    @Test
    void aConnectedNodeIsOnlineAndSeenNowNotAtItsLastDisconnect() throws InterruptedException {
        NodeView never = admin.node(id());
        assertFalse(never.online());
        assertNull(never.lastSeen(), "a node that never connected was never seen");

        server.network.presence().connected(router);
        server.network.presence().disconnected(router);
        NodeView offline = admin.node(id());
        assertFalse(offline.online());
        assertNotNull(offline.lastSeen(), "the end of its stream is stored");
        assertEquals(offline.lastSeen(), admin.node(id()).lastSeen(), "while offline, last seen stays put");

        Thread.sleep(5);
        Instant reconnected = Instant.now();
        server.network.presence().connected(router);
        NodeView online = admin.node(id());
        assertTrue(online.online());
        assertFalse(online.lastSeen().isBefore(reconnected), "seen now, not at the previous disconnect");
        assertTrue(admin.nodes().getFirst().online(), "the listing says the same");

        JsonNode json = JsonMapper.builder().build().readTree(
                server.request("GET", "/api/v1/node/" + id(), server.localToken(), null).body());
        assertTrue(json.get("online").asBoolean(), json.toString());
    }

    @Test
    void aBadRouteIsA400ProblemNamingItAndChangesNothing() {
        admin.setNodeRoutes(id(), List.of("10.1.0.0/16"));
        HttpResponse<String> response = server.request("POST", "/api/v1/node/" + id() + "/routes", server.localToken(),
                "{\"routes\": [\"10.1.0.0/16\", \"10.2.0.300/24\"]}");
        assertEquals(400, response.statusCode());
        assertTrue(response.headers().firstValue("Content-Type").orElse("").startsWith("application/problem+json"));
        JsonNode problem = JsonMapper.builder().build().readTree(response.body());
        assertEquals("route \"10.2.0.300/24\" is not a CIDR prefix such as 10.0.0.0/24", problem.get("detail").asString());
        assertEquals(List.of("10.1.0.0/16"), admin.nodeRoutes(id()).approved());

        HttpResponse<String> missing = server.request("POST", "/api/v1/node/" + id() + "/routes", server.localToken(),
                "{}");
        assertEquals(400, missing.statusCode());
        assertTrue(missing.body().contains("needs the field \\\"routes\\\""), missing.body());
    }

    @Test
    void readingAndApprovingNeedTheRoutesScopes() {
        String coreKey = admin.createApiKey(new ApiKeyRequest("odin", List.of("devices:core"), "", null)).secret();
        assertEquals(403, server.request("GET", "/api/v1/node/" + id() + "/routes", coreKey, null).statusCode());
        assertEquals(403, server.request("POST", "/api/v1/node/" + id() + "/routes", coreKey,
                "{\"routes\": [\"10.1.0.0/16\"]}").statusCode());

        String readKey = admin.createApiKey(new ApiKeyRequest("odin", List.of("devices:routes:read"), "", null)).secret();
        assertEquals(200, server.request("GET", "/api/v1/node/" + id() + "/routes", readKey, null).statusCode());
        assertEquals(403, server.request("POST", "/api/v1/node/" + id() + "/routes", readKey,
                "{\"routes\": [\"10.1.0.0/16\"]}").statusCode());

        String routesKey = admin.createApiKey(new ApiKeyRequest("odin", List.of("devices:routes"), "", null)).secret();
        assertEquals(200, server.request("POST", "/api/v1/node/" + id() + "/routes", routesKey,
                "{\"routes\": [\"10.1.0.0/16\"]}").statusCode());
        assertEquals(404, server.request("GET", "/api/v1/node/999/routes", routesKey, null).statusCode());
    }
}
