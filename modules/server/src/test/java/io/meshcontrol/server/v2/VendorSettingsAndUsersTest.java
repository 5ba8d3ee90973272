package io.meshcontrol.server.v2;

import static io.meshcontrol.server.v2.VendorCalls.ok;
import static io.meshcontrol.server.v2.VendorCalls.refused;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.core.testing.AuthKey;
import io.meshcontrol.core.testing.Machine;
import io.meshcontrol.server.testing.TestServer;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/** Tailnet settings (four changeable, the rest read-only) and users through {@code /api/v2}. */
class VendorSettingsAndUsersTest {

    @TempDir
    Path folder;
    TestServer server;
    VendorCalls api;

    @BeforeEach
    void start() {
        server = TestServer.start(folder);
        api = VendorCalls.allAccess(server);
    }

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void theFourChangeableSettingsChangeAndNullLeavesAFieldAlone() {
        ok(api.patch("/tailnet/-/settings", """
                {"aclsExternallyManagedOn":null,"aclsExternalLink":null,"devicesApprovalOn":true,
                 "usersApprovalOn":true,"postureIdentityCollectionOn":true,"devicesKeyDurationDays":30}"""));
        JsonNode read = ok(api.get("/tailnet/-/settings"));
        assertTrue(read.path("devicesApprovalOn").asBoolean());
        assertTrue(read.path("usersApprovalOn").asBoolean());
        assertTrue(read.path("postureIdentityCollectionOn").asBoolean());
        assertEquals(30, read.path("devicesKeyDurationDays").asInt());
        assertTrue(server.network.settings().get(io.meshcontrol.core.auth.Caller.localAdmin()).devicesApprovalOn());

        ok(api.patch("/tailnet/-/settings", "{\"aclsExternallyManagedOn\":false,\"aclsExternalLink\":\"\","
                + "\"usersApprovalOn\":false}"));
        JsonNode after = ok(api.get("/tailnet/-/settings"));
        assertFalse(after.path("usersApprovalOn").asBoolean());
        assertTrue(after.path("devicesApprovalOn").asBoolean(), "left out: unchanged");
    }

    @Test
    void readOnlySettingsMayBeRepeatedButNotChanged() {
        refused(api.patch("/tailnet/-/settings", "{\"networkFlowLoggingOn\":true}"), 400, "networkFlowLoggingOn");
        refused(api.patch("/tailnet/-/settings", "{\"aclsExternallyManagedOn\":true}"), 400, "aclsExternallyManagedOn");
        refused(api.patch("/tailnet/-/settings", "{\"devicesKeyDurationDays\":181}"), 400, "devicesKeyDurationDays");
        refused(api.patch("/tailnet/-/settings", "{\"noSuchSetting\":true}"), 400, "noSuchSetting");
        refused(VendorCalls.scoped(server, "feature_settings:read").patch("/tailnet/-/settings",
                "{\"usersApprovalOn\":true}"), 403, "feature_settings");
    }

    @Test
    void usersAreListedFilteredAndReadByIdWithTheirDevices() {
        VendorCalls.createUser(server, "odin", "odin@example.com");
        VendorCalls.createUser(server, "freya", "");
        Machine.named("laptop").join(server.network, AuthKey.forUser("odin").create(server.network));
        JsonNode users = ok(api.get("/tailnet/-/users")).path("users");
        assertEquals(2, users.size());
        JsonNode odin = users.get(0);
        assertEquals("odin@example.com", odin.path("loginName").asString());
        assertEquals(server.network.tailnetId(), odin.path("tailnetId").asString());
        assertEquals("member", odin.path("type").asString());
        assertEquals("member", odin.path("role").asString());
        assertEquals(1, odin.path("deviceCount").asInt());
        assertTrue(odin.path("created").asString().startsWith("20"), "RFC 3339, never \"\"");
        assertFalse(odin.has("lastSeen"), "never seen: left out");

        assertEquals(2, ok(api.get("/tailnet/-/users?type=member")).path("users").size());
        assertEquals(0, ok(api.get("/tailnet/-/users?role=admin")).path("users").size());
        assertEquals("freya", ok(api.get("/users/" + users.get(1).path("id").asString())).path("loginName").asString());
        refused(api.get("/users/424242"), 404, "424242");
        refused(VendorCalls.scoped(server, "dns").get("/tailnet/-/users"), 403, "users:read");
    }
}
