package io.meshcontrol.server.v2;

import static io.meshcontrol.server.v2.VendorCalls.ok;
import static io.meshcontrol.server.v2.VendorCalls.refused;
import static io.meshcontrol.server.v2.VendorDevicesTest.texts;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.core.testing.AuthKey;
import io.meshcontrol.core.testing.Machine;
import io.meshcontrol.core.model.Node;
import io.meshcontrol.server.testing.TestServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/** Services, posture integrations, the unsupported resources and {@code /api/v2/docs}. */
class VendorServicesPostureTest {

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
    void aServiceGetsAddressesOfItsOwnAndKeepsThem() {
        ok(api.put("/tailnet/-/vip-services/svc:web", """
                {"name":"svc:web","comment":"the site","ports":["tcp:443"],"tags":["tag:web"],
                 "annotations":{"tailscale.com/owner-references":"x"}}"""));
        JsonNode web = ok(api.get("/tailnet/-/vip-services/svc:web"));
        List<String> addrs = texts(web.path("addrs"));
        assertEquals(2, addrs.size());
        assertEquals("x", web.path("annotations").path("tailscale.com/owner-references").asString());
        ok(api.put("/tailnet/-/vip-services/svc:web", "{\"name\":\"svc:web\",\"addrs\":" + web.path("addrs")
                + ",\"ports\":[\"tcp:80\"],\"tags\":[\"tag:web\"]}"));
        JsonNode updated = ok(api.get("/tailnet/-/vip-services/svc:web"));
        assertEquals(addrs, texts(updated.path("addrs")), "an update keeps the addresses");
        assertEquals(List.of("tcp:80"), texts(updated.path("ports")));

        VendorCalls.createUser(server, "odin", "");
        Node node = Machine.named("laptop").join(server.network, AuthKey.forUser("odin").create(server.network));
        assertFalse(addrs.contains(node.ipv4()), "nodes and services never share an address");

        assertEquals(1, ok(api.get("/tailnet/-/vip-services")).path("vipServices").size());
        refused(api.put("/tailnet/-/vip-services/svc:db", "{\"addrs\":[\"100.100.100.100\"]}"), 400, "assigned");
        refused(api.put("/tailnet/-/vip-services/web", "{}"), 400, "svc:");
        refused(api.put("/tailnet/-/vip-services/svc:db", "{\"ports\":[\"http\"]}"), 400, "http");
        ok(api.delete("/tailnet/-/vip-services/svc:web"));
        refused(api.get("/tailnet/-/vip-services/svc:web"), 404, "svc:web");
        refused(api.delete("/tailnet/-/vip-services/svc:web"), 404, "svc:web");
        refused(VendorCalls.scoped(server, "devices:core").get("/tailnet/-/vip-services"), 403, "services:read");
    }

    @Test
    void sixPostureProvidersAreStoredFleetAndHuntressAreRefusedByName() {
        JsonNode created = ok(api.post("/tailnet/-/posture/integrations",
                "{\"provider\":\"falcon\",\"cloudId\":\"us-1\",\"clientId\":\"abc\",\"clientSecret\":\"s3cret\"}"));
        String id = created.path("id").asString();
        assertFalse(created.has("clientSecret"), "the secret is write-only");
        JsonNode patched = ok(api.patch("/posture/integrations/" + id, "{\"clientId\":\"def\"}"));
        assertEquals("us-1", patched.path("cloudId").asString(), "absent keeps the value");
        assertEquals("def", ok(api.get("/posture/integrations/" + id)).path("clientId").asString());
        assertEquals(1, ok(api.get("/tailnet/-/posture/integrations")).path("integrations").size());
        refused(api.post("/tailnet/-/posture/integrations", "{\"provider\":\"falcon\",\"clientSecret\":\"x\"}"), 409,
                "falcon");
        refused(api.post("/tailnet/-/posture/integrations", "{\"provider\":\"fleet\",\"clientSecret\":\"x\"}"), 400,
                "\"fleet\" is not supported");
        refused(api.post("/tailnet/-/posture/integrations", "{\"provider\":\"huntress\",\"clientSecret\":\"x\"}"), 400,
                "\"huntress\" is not supported");
        for (String provider : List.of("sentinelone", "intune", "jamfpro", "kandji", "kolide")) {
            ok(api.post("/tailnet/-/posture/integrations", "{\"provider\":\"" + provider + "\",\"clientSecret\":\"x\"}"));
        }
        ok(api.delete("/posture/integrations/" + id));
        refused(api.get("/posture/integrations/" + id), 404, id);
    }

    @Test
    void contactsAndTheAwsExternalIdAnswer404() {
        refused(api.get("/tailnet/-/contacts"), 404, "contacts are not supported");
        refused(api.patch("/tailnet/-/contacts/security", "{\"email\":\"a@example.com\"}"), 404, "not supported");
        refused(api.post("/tailnet/-/aws-external-id", "{\"reusable\":false}"), 404, "not supported");
    }

    @Test
    void theDocsPageListsWhatIsServedWithPartialRowsMarked() throws Exception {
        HttpResponse<String> page = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create(server.url() + "/api/v2/docs")).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, page.statusCode(), "no credential needed");
        assertTrue(page.headers().firstValue("Content-Type").orElseThrow().startsWith("text/html"));
        assertTrue(page.body().contains("/api/v2/tailnet/{tailnet}/devices"));
        assertTrue(page.body().contains("class=\"partial\"><td>POST</td><td><code>/api/v2/tailnet/{tailnet}/dns/preferences"));
        assertTrue(page.body().contains("class=\"unsupported\"><td>GET</td><td><code>/api/v2/tailnet/{tailnet}/contacts"));
        assertNotEquals(-1, page.body().indexOf("devices:core:read"));
    }
}
