package io.meshcontrol.gui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.api.WebhookDeliveryView;
import io.meshcontrol.api.WebhookView;
import io.meshcontrol.server.testing.TestServer;
import java.nio.file.Path;
import java.util.List;
import javafx.scene.control.ListView;
import javafx.scene.control.TableView;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WebhooksScreenTest {

    @TempDir
    Path folder;
    private TestServer server;
    private RunningApp app;
    private HookReceiver receiver;

    @BeforeEach
    void start() throws Exception {
        server = TestServer.in(folder).set("egress.allow_loopback_targets", "true").start();
        receiver = new HookReceiver();
        app = RunningApp.start(folder.resolve("config"), server.localCredentialPath()).connectLocally();
        app.click("Webhooks");
    }

    @AfterEach
    void stop() throws Exception {
        app.close();
        server.close();
        receiver.close();
    }

    private String hookUrl() {
        return receiver.url();
    }

    @SuppressWarnings("unchecked")
    private List<WebhookDeliveryView> deliveryRows() {
        return app.onFx(() -> List.copyOf(app.robot.lookup("#webhookDeliveries").queryAs(TableView.class).getItems()));
    }

    @Test
    void aWebhookIsCreatedTestedRotatedAndDeleted() {
        app.type("#webhookUrl", hookUrl());
        app.await("the event types", () -> !app.robot.lookup("#webhookEvents").queryAs(ListView.class).getItems()
                .isEmpty());
        app.robot.interact(() -> app.robot.lookup("#webhookEvents").queryAs(ListView.class).getSelectionModel()
                .select("nodeCreated"));
        app.click("#createWebhook");
        app.await("the secret shown", () -> !app.text("#webhookSecret").isEmpty());
        String first = app.text("#webhookSecret");
        assertTrue(first.startsWith("svckey-webhook-"), first);
        WebhookView made = server.adminClient().webhooks().getFirst();
        assertEquals(hookUrl(), made.url());
        assertEquals(List.of("nodeCreated"), made.subscriptions());
        app.screenshot("desktop-webhooks");

        app.click("#webhookSecretDone");
        app.await("the secret forgotten", () -> app.text("#webhookSecret").isEmpty());

        // A test event reaches the receiver and is listed among the deliveries.
        app.clickCell("#webhooks", hookUrl());
        app.click("#testWebhook");
        app.await("delivered", () -> !receiver.signatures.isEmpty()
                && !server.adminClient().webhookDeliveries(made.id()).isEmpty());
        app.click("#reloadDeliveries");
        app.await("the delivery listed", () -> deliveryRows().stream()
                .anyMatch(delivery -> delivery.eventTypes().contains("test")));

        // Rotating asks first, then shows the new secret once.
        app.click("#rotateWebhook");
        app.answerDialog("OK");
        app.await("the new secret", () -> !app.text("#webhookSecret").isEmpty());
        assertNotEquals(first, app.text("#webhookSecret"));

        // Deleting the endpoint whose secret is shown closes the secret.
        app.click("#deleteWebhook");
        app.answerDialog("OK");
        app.await("deleted on the server", () -> server.adminClient().webhooks().isEmpty());
        app.await("the secret closed", () -> app.text("#webhookSecret").isEmpty());
        app.await("the outcome", () -> app.text("#statusMessage").equals("Deleted the webhook " + hookUrl()));
    }

    @Test
    void aRefusedUrlIsShownAsTheServerWordsIt() {
        app.type("#webhookUrl", "ftp://example.com/hook");
        app.click("#createWebhook");
        app.await("the refusal", () -> app.text("#statusMessage").startsWith("Creating a webhook: "));
        assertTrue(app.text("#statusMessage").contains("HTTP 400"), app.text("#statusMessage"));
        assertTrue(server.adminClient().webhooks().isEmpty());
    }
}
