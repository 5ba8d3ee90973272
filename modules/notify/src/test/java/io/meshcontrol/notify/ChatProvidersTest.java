package io.meshcontrol.notify;

import static io.meshcontrol.notify.WebhookReceiver.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.core.address.EgressGuard;
import io.meshcontrol.core.model.Role;
import io.meshcontrol.core.state.Webhooks;
import io.meshcontrol.core.testing.TestNetwork;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import javax.net.ssl.SSLSocketFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/** Each chat provider gets the bare message in its own shape, still signed. */
class ChatProvidersTest {

    @TempDir
    Path folder;
    TestNetwork net;
    Notifications notifications;
    final WebhookReceiver receiver = new WebhookReceiver();

    @BeforeEach
    void start() {
        net = new TestNetwork(folder);
        receiver.now(net.clock.instant());
        notifications = Notifications.start(net.network, new Notifications.Settings(Tailnet.of("",
                "https://mesh.example.com:8443"), new EgressGuard(false, true), WebhookDeliveryTest::literal,
                WebhookDeliveryTest.NO_MAIL, Duration.ofSeconds(5), (SSLSocketFactory) SSLSocketFactory.getDefault(),
                new java.util.Properties()),
                net.clock);
    }

    @AfterEach
    void stop() {
        notifications.close();
        receiver.close();
    }

    /** Sends a userCreated to an endpoint of {@code provider} at {@code path} and returns what arrived. */
    private WebhookReceiver.Received deliver(String provider, String path, String query) {
        Webhooks.Issued hook = net.network.webhooks().create(net.admin, new Webhooks.Fields(
                receiver.url(path) + query, provider, List.of("userCreated")));
        receiver.secret(path, hook.secret());
        net.user("odin", Role.MEMBER);
        await("the delivery", () -> receiver.at(path).size() == 1);
        WebhookReceiver.Received got = receiver.at(path).getFirst();
        assertTrue(got.signed(), "the signature header is sent to providers too");
        return got;
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"slack,text", "mattermost,text", "googlechat,text", "teams,text", "discord,content"})
    void textProvidersGetTheMessageInTheirField(String provider, String field) {
        WebhookReceiver.Received got = deliver(provider, "/" + provider, "");
        JsonNode body = EventObjects.JSON.readTree(got.body());
        assertEquals(1, body.size(), got.body());
        assertEquals("User odin created", body.get(field).asString());
        assertEquals("application/json", got.header("Content-Type"));
    }

    @Test
    void telegramMovesTheChatIdIntoTheBody() {
        WebhookReceiver.Received got = deliver("telegram", "/bot123:abc/sendMessage", "?chat_id=-100200&x=1");
        assertEquals("x=1", got.query(), "chat_id left the URL, other parameters stay");
        JsonNode body = EventObjects.JSON.readTree(got.body());
        assertEquals("-100200", body.get("chat_id").asString());
        assertEquals("User odin created", body.get("text").asString());
    }

    @Test
    void ntfyPostsTheMessageWithTheNetworkNameAsTitle() {
        WebhookReceiver.Received got = deliver("ntfy", "/mesh-alerts", "");
        assertEquals("User odin created", got.body());
        assertEquals("mesh.example.com", got.header("Title"), "no base domain: the server's host names the network");
        assertTrue(got.header("Content-Type").startsWith("text/plain"));
    }
}
