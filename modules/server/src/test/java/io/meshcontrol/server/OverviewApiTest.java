package io.meshcontrol.server;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.meshcontrol.api.ApiJson;
import io.meshcontrol.api.ApiKeyRequest;
import io.meshcontrol.api.MeshClient;
import io.meshcontrol.api.PreAuthKeyRequest;
import io.meshcontrol.api.UserRequest;
import io.meshcontrol.core.model.Node;
import io.meshcontrol.core.testing.Machine;
import io.meshcontrol.server.testing.TestServer;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/** {@code GET /api/v1/overview}: the counts the console's first page shows, made by the server. */
class OverviewApiTest {

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

    private JsonNode overview() {
        HttpResponse<String> answer = server.request("GET", "/api/v1/overview", server.localToken(), null);
        assertEquals(200, answer.statusCode(), answer.body());
        return ApiJson.mapper(false).readTree(answer.body());
    }

    private static String hostinfo(String version, String latency) {
        return "{\"IPNVersion\": \"" + version + "-t1234abcd-g5678\", \"NetInfo\": {\"PreferredDERP\": 999,"
                + " \"DERPLatency\": {" + latency + "}}}";
    }

    @Test
    void countsMachinesKeysAndRelays() {
        JsonNode before = overview();
        int apiKeysBefore = before.path("keys").path("apiKeysExpiringSoon").intValue();
        assertEquals(0, before.path("machines").path("total").intValue());

        String approved = admin.createPreAuthKey(new PreAuthKeyRequest("alice", null, true, false, true, null, "24h"))
                .secret();
        admin.createPreAuthKey(new PreAuthKeyRequest("alice", null, true, false, false, null, "720h"));
        admin.createApiKey(new ApiKeyRequest(null, null, "short", "48h"));
        admin.createApiKey(new ApiKeyRequest(null, null, "long", "720h"));
        server.network.mapContext().latestClientVersion("1.102.5");

        Node old = Machine.named("old").hostinfo(hostinfo("1.80.3", "\"999-v4\": 0.012")).join(server.network, approved);
        Machine.named("current").hostinfo(hostinfo("1.102.5", "\"999-v4\": 0.020")).join(server.network, approved);
        Node expired = Machine.named("expired").join(server.network, approved);
        admin.expireNode(Long.toString(expired.id()));
        server.request("PATCH", "/api/v1/settings", server.localToken(), "{\"devicesApprovalOn\": true}");
        String needsApproval = admin.createPreAuthKey(new PreAuthKeyRequest("alice", null, false, false, false, null,
                "720h")).secret();
        Machine.named("waiting").join(server.network, needsApproval);
        server.network.presence().connected(old);

        JsonNode machines = overview().path("machines");
        assertEquals(4, machines.path("total").intValue());
        assertEquals(1, machines.path("online").intValue());
        assertEquals(1, machines.path("waitingForApproval").intValue());
        assertEquals(1, machines.path("updateAvailable").intValue(), "1.80.3 is older than 1.102.5");
        assertEquals("1.102.5", machines.path("latestClientVersion").stringValue());
        assertEquals(1, machines.path("keysExpired").intValue());

        JsonNode keys = overview().path("keys");
        assertEquals(1, keys.path("preAuthKeysExpiringSoon").intValue(), "the 24h key, not the 720h ones");
        assertEquals(apiKeysBefore + 1, keys.path("apiKeysExpiringSoon").intValue(), "the 48h key");
        assertEquals("168h", overview().path("soonWithin").stringValue());
    }

    @Test
    void relaysAreUpWhenMachinesMeasureThem() {
        String key = admin.createPreAuthKey(new PreAuthKeyRequest("alice", null, true, false, true, null, "24h"))
                .secret();
        HttpResponse<String> derp = server.request("GET", "/api/v1/derp", server.localToken(), null);
        HttpResponse<String> set = server.request("PUT", "/api/v1/derp", server.localToken(), "{\"urls\": [],"
                + " \"relays\": [{\"regionId\": 900, \"code\": \"lab\", \"host\": \"relay1.example.com\"},"
                + " {\"regionId\": 901, \"code\": \"far\", \"host\": \"relay2.example.com\"}]}");
        assertEquals(200, set.statusCode(), set.body() + derp.body());
        JsonNode unmeasured = overview().path("relays");
        assertEquals(2, unmeasured.size(), unmeasured.toString());
        for (JsonNode relay : unmeasured) {
            assertEquals("unknown", relay.path("status").stringValue(), relay.toString());
        }
        int region = 900;
        Machine.named("a").hostinfo(hostinfo("1.102.5", "\"" + region + "-v4\": 0.010")).join(server.network, key);
        Machine.named("b").hostinfo(hostinfo("1.102.5", "\"" + region + "-v4\": 0.030")).join(server.network, key);
        for (JsonNode relay : overview().path("relays")) {
            if (relay.path("regionId").intValue() == region) {
                assertEquals("up", relay.path("status").stringValue());
                assertEquals(2, relay.path("reporting").intValue());
                assertEquals(20.0, relay.path("medianMs").doubleValue(), 10.0);
            } else {
                assertEquals(901, relay.path("regionId").intValue());
                assertEquals("down", relay.path("status").stringValue(), relay.toString());
                assertEquals(true, relay.path("medianMs").isNull(), relay.toString());
            }
        }
    }
}
