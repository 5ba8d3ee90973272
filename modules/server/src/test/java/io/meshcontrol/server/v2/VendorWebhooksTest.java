package io.meshcontrol.server.v2;

import static io.meshcontrol.server.v2.VendorCalls.ok;
import static io.meshcontrol.server.v2.VendorCalls.refused;
import static io.meshcontrol.server.v2.VendorDevicesTest.texts;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.core.testing.LoopbackHttpServer;
import io.meshcontrol.server.testing.TestServer;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/** {@code /api/v2/tailnet/-/webhooks} and {@code /api/v2/webhooks/{id}[/test|/rotate]} in the vendor's shapes. */
class VendorWebhooksTest {

    @TempDir
    Path folder;
    TestServer server;
    final LoopbackHttpServer receiver = new LoopbackHttpServer();

    @BeforeEach
    void start() {
        server = TestServer.in(folder).set("egress.allow_loopback_targets", "true").start();
        receiver.serve("/hook", "{}");
    }

    @AfterEach
    void stop() {
        server.close();
        receiver.close();
    }

    @Test
    void createReadUpdateRotateTestAndDeleteInTheVendorsShape() throws InterruptedException {
        VendorCalls api = VendorCalls.scoped(server, "webhooks");
        JsonNode created = ok(api.post("/tailnet/-/webhooks", "{\"endpointUrl\":\"" + receiver.url("/hook")
                + "\",\"providerType\":\"\",\"subscriptions\":[\"nodeCreated\",\"userDeleted\"]}"));
        String id = created.path("endpointId").asString();
        String secret = created.path("secret").asString();
        assertTrue(secret.startsWith("svckey-webhook-"), created.toString());
        assertEquals("", created.path("providerType").asString());
        assertEquals(List.of("nodeCreated", "userDeleted"), texts(created.path("subscriptions")));
        assertTrue(created.path("created").asString().endsWith("Z"), "RFC 3339: " + created);
        assertTrue(created.has("lastModified") && created.has("creatorLoginName"), created.toString());

        JsonNode read = ok(api.get("/webhooks/" + id));
        assertFalse(read.has("secret"), "the secret is shown on create and rotate only");
        JsonNode listed = ok(api.get("/tailnet/-/webhooks"));
        assertEquals(id, listed.path("webhooks").get(0).path("endpointId").asString());
        assertFalse(listed.path("webhooks").get(0).has("secret"));

        JsonNode patched = ok(api.patch("/webhooks/" + id, "{\"subscriptions\":[\"policyUpdate\"]}"));
        assertEquals(List.of("policyUpdate"), texts(patched.path("subscriptions")));

        JsonNode rotated = ok(api.post("/webhooks/" + id + "/rotate", null));
        assertNotEquals(secret, rotated.path("secret").asString());

        assertEquals(202, api.post("/webhooks/" + id + "/test", null).statusCode());
        for (int i = 0; i < 600 && receiver.requests.isEmpty(); i++) {
            TimeUnit.MILLISECONDS.sleep(50);
        }
        assertEquals(1, receiver.requests.size(), "the test event was delivered");
        assertTrue(receiver.requests.getFirst().headers().get("mesh-webhook-signature").startsWith("t="),
                receiver.requests.getFirst().headers().toString());

        ok(api.delete("/webhooks/" + id));
        refused(api.get("/webhooks/" + id), 404, "no webhook endpoint");
    }

    @Test
    void theReadScopeReadsButDoesNotWrite() {
        VendorCalls writer = VendorCalls.scoped(server, "webhooks");
        String id = ok(writer.post("/tailnet/-/webhooks", "{\"endpointUrl\":\"" + receiver.url("/hook")
                + "\",\"subscriptions\":[]}")).path("endpointId").asString();
        VendorCalls reader = VendorCalls.scoped(server, "webhooks:read");
        ok(reader.get("/webhooks/" + id));
        refused(reader.post("/webhooks/" + id + "/rotate", null), 403, "webhooks");
        refused(reader.post("/tailnet/-/webhooks", "{\"endpointUrl\":\"" + receiver.url("/hook") + "\"}"), 403,
                "webhooks");
        refused(VendorCalls.scoped(server, "dns").get("/tailnet/-/webhooks"), 403, "webhooks:read");
    }

    @Test
    void badInputIsAMessage() {
        VendorCalls api = VendorCalls.scoped(server, "webhooks");
        refused(api.post("/tailnet/-/webhooks", "{\"endpointUrl\":\"http://169.254.169.254/x\"}"), 400, "link-local");
        refused(api.post("/tailnet/-/webhooks", "{\"endpointUrl\":\"" + receiver.url("/hook")
                + "\",\"providerType\":\"pager\"}"), 400, "unknown webhook provider");
        refused(api.post("/tailnet/-/webhooks", "{\"endpointUrl\":\"" + receiver.url("/hook")
                + "\",\"subscriptions\":[\"nodeExploded\"]}"), 400, "unknown webhook event type");
        refused(api.post("/tailnet/-/webhooks", "{\"endpointUrl\":\"mailto:ops@example.com\",\"providerType\":"
                + "\"email\"}"), 400, "notifications.smtp.host is unset");
    }
}
