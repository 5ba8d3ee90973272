package io.meshcontrol.gui;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.meshcontrol.api.AccessRequestRequest;
import io.meshcontrol.api.AccessRequestView;
import io.meshcontrol.api.NodeView;
import io.meshcontrol.api.SettingsView;
import io.meshcontrol.api.UserRequest;
import io.meshcontrol.api.WebhookRequest;
import io.meshcontrol.api.WebhookView;
import io.meshcontrol.core.model.Node;
import io.meshcontrol.core.testing.AuthKey;
import io.meshcontrol.core.testing.Machine;
import io.meshcontrol.gui.notify.Notice;
import io.meshcontrol.server.testing.TestServer;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import javafx.scene.control.ListView;
import javafx.scene.control.TabPane;
import javafx.scene.control.TableView;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The notification list: what waits for an administrator, from the event stream; a click opens the item. */
class NotificationsTest {

    @TempDir
    Path folder;
    private TestServer server;
    private RunningApp app;

    @BeforeEach
    void start() throws Exception {
        server = TestServer.in(folder).set("egress.allow_loopback_targets", "true").start(); // the webhook receiver
        server.adminClient().createUser(new UserRequest("odin", null, null, null));
        app = RunningApp.start(folder.resolve("config"), server.localCredentialPath()).connectLocally();
    }

    @AfterEach
    void stop() throws Exception {
        app.close();
        server.close();
    }

    @SuppressWarnings("unchecked")
    private List<Notice> notices() {
        return app.onFx(() -> List.copyOf(app.robot.lookup("#notificationList").queryAs(ListView.class).getItems()));
    }

    private Notice notice(Notice.Kind kind) {
        return notices().stream().filter(notice -> notice.kind() == kind).findFirst().orElseThrow();
    }

    private String shownTab() {
        return app.onFx(() -> app.robot.lookup(".tab-pane").queryAs(TabPane.class).getSelectionModel()
                .getSelectedItem().getText());
    }

    /** Opens the list and clicks the notice. */
    private void open(Notice notice) {
        if (!app.onFx(() -> app.robot.lookup("#notificationPanel").query().isVisible())) {
            app.click("#notifications");
        }
        java.util.concurrent.Callable<java.util.Optional<javafx.scene.Node>> cell = () -> app.robot
                .lookup("#notificationList .list-cell").lookup((javafx.scene.Node node) -> node.isVisible()
                        && node.getScene() != null && node.localToScene(node.getBoundsInLocal()).getHeight() > 0
                        && notice.text().equals(((javafx.scene.control.ListCell<?>) node).getText())).tryQuery();
        app.await("the notice drawn", () -> app.onFx(cell).isPresent());
        app.robot.clickOn((javafx.scene.Node) app.onFx(() -> cell.call().orElseThrow()));
    }

    @SuppressWarnings("unchecked")
    private <T> T selected(String table) {
        return app.onFx(() -> (T) app.robot.lookup(table).queryAs(TableView.class).getSelectionModel()
                .getSelectedItem());
    }

    @Test
    void aMachineWaitingForApprovalIsNotifiedAndOpensSelected() {
        server.adminClient().updateSettings(new SettingsView(true, null, null));
        Node laptop = Machine.named("laptop").join(server.network, AuthKey.forUser("odin").create(server.network));
        app.await("notified", () -> notices().stream().anyMatch(n -> n.kind() == Notice.Kind.MACHINE_WAITING));
        assertEquals("Machine laptop waits for approval (odin)", notice(Notice.Kind.MACHINE_WAITING).text());
        app.await("the badge", () -> app.text("#notifications").equals("1 notification"));
        app.click("Keys");
        app.click("#notifications");
        app.screenshot("desktop-notifications");
        open(notice(Notice.Kind.MACHINE_WAITING));
        app.await("the machines shown", () -> shownTab().equals("Machines"));
        app.await("laptop selected", () -> selected("#machines") != null
                && ((NodeView) selected("#machines")).id().equals(Long.toString(laptop.id())));
        app.click("#approveMachine");
        app.await("the notice gone once approved", () -> notices().isEmpty());
    }

    @Test
    void anAccessRequestIsNotifiedAndOpensSelected() {
        server.adminClient().setPolicy("""
                {"groups": {"group:oncall": []}, "acls": [{"action": "accept", "src": ["*"], "dst": ["*:*"]}]}
                """);
        AccessRequestView filed = server.adminClient().createAccessRequest(
                new AccessRequestRequest("odin", "group:oncall", "incident 42", "8h"));
        app.await("notified", () -> notices().stream().anyMatch(n -> n.kind() == Notice.Kind.ACCESS_REQUEST));
        open(notice(Notice.Kind.ACCESS_REQUEST));
        app.await("the requests shown", () -> shownTab().equals("Access requests"));
        app.await("the request selected", () -> selected("#accessRequests") != null
                && ((AccessRequestView) selected("#accessRequests")).id().equals(filed.id()));
        server.adminClient().decideAccessRequest(filed.id(), "deny");
        app.await("the notice gone once decided", () -> notices().isEmpty());
    }

    @Test
    void aFailingWebhookIsNotifiedAndOpensSelected() throws Exception {
        try (HookReceiver receiver = new HookReceiver(404)) {
            WebhookView hook = server.adminClient().createWebhook(new WebhookRequest(receiver.url(), null,
                    List.of("nodeCreated"))).webhook();
            server.adminClient().testWebhook(hook.id());
            app.await("failed on the server", () -> server.adminClient().webhookDeliveries(hook.id()).stream()
                    .anyMatch(delivery -> delivery.error() != null));
            server.adminClient().createUser(new UserRequest("thor", null, null, null)); // a change after it
            app.await("notified", () -> notices().stream().anyMatch(n -> n.kind() == Notice.Kind.WEBHOOK_FAILING));
            assertEquals("Webhook " + receiver.url() + " fails: HTTP 404", notice(Notice.Kind.WEBHOOK_FAILING).text());
            open(notice(Notice.Kind.WEBHOOK_FAILING));
            app.await("the webhooks shown", () -> shownTab().equals("Webhooks"));
            app.await("the webhook selected", () -> selected("#webhooks") != null
                    && ((WebhookView) selected("#webhooks")).id().equals(hook.id()));
        }
    }

    @Test
    void aRelayRegionDownIsNotifiedAndOpensSelected() {
        HttpResponse<String> set = server.request("PUT", "/api/v1/derp", server.localToken(), "{\"urls\": [],"
                + " \"relays\": [{\"regionId\": 900, \"code\": \"lab\", \"host\": \"relay1.example.com\"},"
                + " {\"regionId\": 901, \"code\": \"far\", \"host\": \"relay2.example.com\"}]}");
        assertEquals(200, set.statusCode(), set.body());
        Machine.named("a").hostinfo("{\"IPNVersion\": \"1.102.5-t1\", \"NetInfo\": {\"PreferredDERP\": 900,"
                + " \"DERPLatency\": {\"900-v4\": 0.010}}}").join(server.network,
                AuthKey.forUser("odin").create(server.network));
        app.await("notified", () -> notices().stream().anyMatch(n -> n.kind() == Notice.Kind.RELAY_DOWN));
        Notice down = notice(Notice.Kind.RELAY_DOWN);
        assertEquals("901", down.id());
        open(down);
        app.await("the relays shown", () -> shownTab().equals("Relays"));
        app.await("the region selected", () -> selected("#derpLatency") != null
                && ((io.meshcontrol.api.DerpLatencyReport.Region) selected("#derpLatency")).regionId() == 901);
    }
}
