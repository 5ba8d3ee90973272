package io.meshcontrol.server.v2;

import static io.meshcontrol.server.v2.VendorCalls.ok;
import static io.meshcontrol.server.v2.VendorCalls.refused;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.core.auth.Caller;
import io.meshcontrol.core.model.Node;
import io.meshcontrol.core.testing.AuthKey;
import io.meshcontrol.core.testing.Machine;
import io.meshcontrol.server.http.Routes;
import io.meshcontrol.server.testing.TestServer;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/** Devices through {@code /api/v2}, as the Terraform provider and the Go client use them. */
class VendorDevicesTest {

    @TempDir
    Path folder;
    TestServer server;
    VendorCalls api;
    Node laptop;
    Node router;

    @BeforeEach
    void start() {
        server = TestServer.start(folder);
        api = VendorCalls.allAccess(server);
        VendorCalls.createUser(server, "odin", "odin@example.com");
        String key = AuthKey.forUser("odin").reusable().create(server.network);
        laptop = Machine.named("laptop").join(server.network, key);
        router = Machine.named("router").advertising("10.1.0.0/16").join(server.network, key);
        server.network.policies().set(Caller.localAdmin(), """
                {"tagOwners": {"tag:server": ["odin@example.com"]}, "acls": [{"action": "accept", "src": ["*"],
                 "dst": ["*:*"]}]}""", null);
    }

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void theListHasTheDefaultFieldsAndFieldsAllAddsRoutesAndConnectivity() {
        JsonNode devices = ok(api.get("/tailnet/-/devices")).path("devices");
        assertEquals(2, devices.size());
        JsonNode first = devices.get(0);
        assertEquals(Long.toString(laptop.id()), first.path("id").asString());
        assertEquals(laptop.stableId(), first.path("nodeId").asString());
        assertEquals("odin@example.com", first.path("user").asString());
        assertEquals("laptop.mesh.test", first.path("name").asString());
        assertEquals(List.of(laptop.ipv4(), laptop.ipv6()), texts(first.path("addresses")));
        assertTrue(first.path("authorized").asBoolean());
        assertTrue(first.has("created") && first.has("machineKey") && first.has("nodeKey"));
        assertFalse(first.has("lastSeen"), "never seen: left out, never \"\"");
        assertFalse(first.has("enabledRoutes") || first.has("clientConnectivity"), "not among the default fields");

        JsonNode all = ok(api.get("/tailnet/-/devices?fields=all")).path("devices").get(1);
        assertEquals(List.of("10.1.0.0/16"), texts(all.path("advertisedRoutes")));
        assertEquals(List.of(), texts(all.path("enabledRoutes")));
        assertTrue(all.path("clientConnectivity").has("clientSupports"));
    }

    @Test
    void filtersMatchTopLevelFieldsExactly() {
        JsonNode byName = ok(api.get("/tailnet/-/devices?name=router.mesh.test")).path("devices");
        assertEquals(1, byName.size());
        assertEquals("router", byName.get(0).path("hostname").asString());
        assertEquals(0, ok(api.get("/tailnet/-/devices?hostname=route")).path("devices").size());
        assertEquals(2, ok(api.get("/tailnet/-/devices?isEphemeral=false")).path("devices").size());
        refused(api.get("/tailnet/-/devices?colour=blue"), 400, "colour");
    }

    @Test
    void aDeviceIsFoundByItsNumberAndByItsStableIdAndUnknownOnesAre404() {
        assertEquals(laptop.stableId(), ok(api.get("/device/" + laptop.id())).path("nodeId").asString());
        assertEquals(Long.toString(laptop.id()), ok(api.get("/device/" + laptop.stableId())).path("id").asString());
        refused(api.get("/device/nNOSUCHCNTRL"), 404, "device not found");
        refused(api.get("/device/999"), 404, "device not found");
        refused(api.get("/tailnet/example.com/devices"), 404, "tailnet not found");
    }

    @Test
    void authorizationIsASwitchThatRepeatsQuietly() {
        ok(api.post("/device/" + laptop.stableId() + "/authorized", "{\"authorized\":true}"));
        ok(api.post("/device/" + laptop.stableId() + "/authorized", "{\"authorized\":false}"));
        assertFalse(server.network.snapshots().current().node(laptop.id()).orElseThrow().authorized());
        ok(api.post("/device/" + laptop.stableId() + "/authorized", "{\"authorized\":true}"));
        assertTrue(ok(api.get("/device/" + laptop.id())).path("authorized").asBoolean());
        refused(api.post("/device/" + laptop.id() + "/authorized", "{}"), 400, "authorized");
    }

    @Test
    void nameTagsAndKeyExpiryChangeTheDevice() {
        String path = "/device/" + laptop.id();
        ok(api.post(path + "/name", "{\"name\":\"desk.mesh.test\"}"));
        assertEquals("desk.mesh.test", ok(api.get(path)).path("name").asString());

        ok(api.post(path + "/tags", "{\"tags\":[\"tag:server\"]}"));
        JsonNode tagged = ok(api.get(path));
        assertEquals(List.of("tag:server"), texts(tagged.path("tags")));
        assertEquals("tagged-devices", tagged.path("user").asString(), "tagging hands a user's device to the tags");
        refused(api.post(path + "/tags", "{\"tags\":[\"tag:nobody-owns\"]}"), 400, "tag:nobody-owns");

        ok(api.post(path + "/key", "{\"keyExpiryDisabled\":true}"));
        assertTrue(ok(api.get(path)).path("keyExpiryDisabled").asBoolean());
        assertFalse(ok(api.get(path)).has("expires"));
    }

    @Test
    void routesAreReadAndReplaced() {
        String path = "/device/" + router.stableId() + "/routes";
        assertEquals(List.of("10.1.0.0/16"), texts(ok(api.get(path)).path("advertisedRoutes")));
        JsonNode set = ok(api.post(path, "{\"routes\":[\"10.1.0.0/16\",\"192.168.0.0/24\"]}"));
        assertEquals(List.of("10.1.0.0/16", "192.168.0.0/24"), texts(set.path("enabledRoutes")));
        assertEquals(List.of(), texts(ok(api.post(path, "{\"routes\":[]}")).path("enabledRoutes")));
        refused(api.post(path, "{\"routes\":[\"not-a-prefix\"]}"), 400, "not-a-prefix");
    }

    @Test
    void customPostureAttributesAreSetReadAndDeleted() {
        String path = "/device/" + laptop.id() + "/attributes";
        ok(api.post(path + "/custom:tier", "{\"value\":\"gold\",\"expiry\":\"0001-01-01T00:00:00Z\",\"comment\":\"\"}"));
        ok(api.post(path + "/custom:score", "{\"value\":42,\"expiry\":\"2100-01-01T00:00:00Z\",\"comment\":\"c\"}"));
        JsonNode read = ok(api.get(path));
        assertEquals("gold", read.path("attributes").path("custom:tier").asString());
        assertEquals(42, read.path("attributes").path("custom:score").asInt());
        assertEquals(Set.of("custom:score"), names(read.path("expiries")), "the Go zero time means no expiry");
        ok(api.delete(path + "/custom:tier"));
        assertEquals(Set.of("custom:score"), names(ok(api.get(path)).path("attributes")));
        refused(api.post(path + "/node:os", "{\"value\":\"linux\"}"), 400, "custom:");
    }

    @Test
    void anAddressChosenByHandMustBeInThePrefixAndFree() {
        String path = "/device/" + laptop.stableId() + "/ip";
        long before = server.network.snapshots().current().version();
        JsonNode moved = ok(api.post(path, "{\"ipv4\":\"100.64.7.9\"}"));
        Node stored = server.network.nodes().get(Caller.localAdmin(), laptop.id());
        assertEquals("100.64.7.9", stored.ipv4());
        assertTrue(stored.ipv6().endsWith(":6440:709"), "the IPv6 address follows: " + stored.ipv6());
        assertEquals(List.of(stored.ipv4(), stored.ipv6()), texts(moved.path("addresses")));
        var snapshot = server.network.snapshots().current();
        assertTrue(snapshot.version() > before, "a new snapshot: the node and its peers get new maps");
        assertEquals("100.64.7.9", snapshot.node(laptop.id()).orElseThrow().ipv4());
        ok(api.post(path, "{\"ipv4\":\"100.64.7.9\"}"));

        refused(api.post(path, "{\"ipv4\":\"" + router.ipv4() + "\"}"), 409, "already in use");
        refused(api.post(path, "{\"ipv4\":\"10.0.0.1\"}"), 400, "prefix");
        refused(api.post(path, "{\"ipv4\":\"100.100.100.100\"}"), 400, "reserved");
        refused(api.post(path, "{\"ipv4\":\"fd7a::1\"}"), 400, "not an IPv4 address");
        refused(api.post(path, "{}"), 400, "ipv4");
        refused(VendorCalls.scoped(server, "devices:core:read").post(path, "{\"ipv4\":\"100.64.7.10\"}"), 403,
                "devices:core");
        assertEquals("100.64.7.9", server.network.nodes().get(Caller.localAdmin(), laptop.id()).ipv4(),
                "nothing refused was written");
    }

    @Test
    void scopesAreEnforcedPerOperation() {
        VendorCalls reader = VendorCalls.scoped(server, "devices:core:read");
        assertEquals(2, ok(reader.get("/tailnet/-/devices")).path("devices").size());
        refused(reader.delete("/device/" + laptop.id()), 403, "devices:core");
        refused(reader.get("/device/" + router.id() + "/routes"), 403, "devices:routes:read");
        refused(VendorCalls.scoped(server, "dns:read").get("/tailnet/-/devices"), 403, "devices:core:read");
    }

    @Test
    void deletingADeviceRemovesIt() {
        ok(api.delete("/device/" + laptop.stableId()));
        refused(api.get("/device/" + laptop.id()), 404, "device not found");
        refused(api.delete("/device/" + laptop.id()), 404, "device not found");
    }

    static List<String> texts(JsonNode array) {
        return array.valueStream().map(JsonNode::asString).toList();
    }

    private static Set<String> names(JsonNode object) {
        return new TreeSet<>(object.propertyNames());
    }

    /**
     * Every operation on one device checks the caller's scope before it looks the device up: a credential without it
     * gets the same 403 for a device that exists and one that does not, so it cannot learn which ids exist.
     */
    @Test
    void deviceOperationsCheckTheScopeBeforeLookingTheDeviceUp() {
        V2Routes registered = new V2Routes(new Routes(), "unused");
        new DeviceResource(server.network.nodes(), server.network.posture(), server.network.routeApprovals(),
                server.network.snapshots(), "mesh.test").register(registered);
        List<V2Routes.Operation> operations = registered.operations().stream()
                .filter(op -> op.path().startsWith("/api/v2/device/{id}")).toList();
        assertTrue(operations.size() >= 13, "every device operation: " + operations);
        VendorCalls unscoped = VendorCalls.scoped(server, "dns:read");
        for (V2Routes.Operation op : operations) {
            String body = op.method().equals("GET") || op.method().equals("DELETE") ? null : "{}";
            List<String> answers = new ArrayList<>();
            for (String id : List.of(Long.toString(laptop.id()), laptop.stableId(), "999999", "nNoSuchCNTRL")) {
                String path = op.path().substring("/api/v2".length()).replace("{id}", id).replace("{key}", "custom:x");
                HttpResponse<String> response = unscoped.send(op.method(), path, body, body == null ? Map.of()
                        : Map.of("Content-Type", "application/json"));
                assertEquals(403, response.statusCode(), op + " on " + id + ": " + response.body());
                answers.add(response.body());
            }
            assertEquals(1, new HashSet<>(answers).size(), op + " answers alike: " + answers);
        }
        assertEquals(2, ok(api.get("/tailnet/-/devices")).path("devices").size(), "nothing changed");
    }

    /** tailscale_device_key under the default {@code node.expiry: 0s}: what is set reads back, so nothing drifts. */
    @Test
    void keyExpiryDisabledReadsBackAsSetWhileKeysNeverExpire() {
        String device = "/device/" + laptop.id();
        assertFalse(ok(api.get(device)).path("keyExpiryDisabled").asBoolean(), "on for a new device");
        ok(api.post(device + "/key", "{\"keyExpiryDisabled\":true}"));
        assertTrue(ok(api.get(device)).path("keyExpiryDisabled").asBoolean());
        ok(api.post(device + "/key", "{\"keyExpiryDisabled\":false}"));
        JsonNode read = ok(api.get(device));
        assertFalse(read.path("keyExpiryDisabled").asBoolean(), read.toString());
        assertFalse(read.has("expires"),
                "no expiry to show: keys never expire here");
    }
}
