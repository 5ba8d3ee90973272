package io.meshcontrol.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.core.auth.Caller;
import io.meshcontrol.core.key.NodePrivateKey;
import io.meshcontrol.core.key.NodePublicKey;
import io.meshcontrol.core.model.Role;
import io.meshcontrol.core.net.IpPrefix;
import io.meshcontrol.core.state.Users;
import io.meshcontrol.server.docs.OpenApiDocument;
import io.meshcontrol.server.testing.ApiContract;
import io.meshcontrol.server.testing.TestServer;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code POST /api/v1/debug/node}: served and documented only with {@code debug.node_api_enabled}. */
class DebugNodeApiTest {

    @TempDir
    Path folder;

    @Test
    void withoutTheSettingTheEndpointIsNeitherServedNorDocumented() {
        try (TestServer server = TestServer.start(folder)) {
            HttpResponse<String> response = server.request("POST", "/api/v1/debug/node", server.localToken(),
                    "{\"user\": \"odin\", \"name\": \"fake\"}");
            assertEquals(404, response.statusCode());
            assertFalse(server.request("GET", "/api/v1/openapi.yaml", null, null).body().contains("/api/v1/debug/node"));
            assertFalse(OpenApiDocument.text("test").contains("/api/v1/debug/node"));
        }
    }

    @Test
    void withTheSettingItRegistersAMachineWithNoClientAsDocumented() {
        try (TestServer server = TestServer.in(folder).set("debug.node_api_enabled", "true").start()) {
            server.network.users().create(Caller.localAdmin(), new Users.NewUser("odin", null, null, Role.MEMBER));
            ApiContract contract = ApiContract.of(server.request("GET", "/api/v1/openapi.yaml", null, null).body());
            assertEquals(List.of(), contract.documentProblems());
            assertTrue(contract.operations().contains("POST /api/v1/debug/node"));

            String key = NodePrivateKey.generate().publicKey().toText();
            String body = "{\"user\": \"odin\", \"name\": \"fake-router\", \"nodeKey\": \"" + key
                    + "\", \"routes\": [\"10.1.0.0/16\"]}";
            HttpResponse<String> created = server.request("POST", "/api/v1/debug/node", server.localToken(), body);
            assertEquals(200, created.statusCode(), created.body());
            contract.check(ApiContract.Exchange.of("POST", "/api/v1/debug/node", body, created));
            var node = server.network.snapshots().current().nodeByKey(NodePublicKey.parse(key)).orElseThrow();
            assertEquals("fake-router", node.hostname());
            assertEquals(List.of(IpPrefix.parse("10.1.0.0/16")), node.advertisedRoutes());
            assertFalse(server.network.snapshots().current().isOnline(node.id()));

            for (String bad : List.of("{\"user\": \"odin\", \"name\": \"x\", \"nodeKey\": \"nodekey:12\"}",
                    "{\"user\": \"odin\", \"name\": \"x\", \"routes\": [\"ten\"]}")) {
                HttpResponse<String> refused = server.request("POST", "/api/v1/debug/node", server.localToken(), bad);
                assertEquals(400, refused.statusCode(), bad);
                contract.check(ApiContract.Exchange.of("POST", "/api/v1/debug/node", bad, refused));
            }
            assertEquals(400, server.request("POST", "/api/v1/debug/node", server.localToken(), "{\"user\": \"odin\"}")
                    .statusCode());
            String stranger = "{\"user\": \"nobody\", \"name\": \"x\"}";
            HttpResponse<String> unknown = server.request("POST", "/api/v1/debug/node", server.localToken(), stranger);
            assertEquals(404, unknown.statusCode());
            contract.check(ApiContract.Exchange.of("POST", "/api/v1/debug/node", stranger, unknown));
            assertEquals(401, server.request("POST", "/api/v1/debug/node", null, stranger).statusCode());
        }
    }
}
