package io.meshcontrol.gui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.api.DerpLatencyReport;
import io.meshcontrol.api.PreAuthKeyRequest;
import io.meshcontrol.api.SettingsView;
import io.meshcontrol.api.UserRequest;
import io.meshcontrol.api.UserView;
import io.meshcontrol.core.testing.Machine;
import io.meshcontrol.server.testing.TestServer;
import java.nio.file.Path;
import java.util.List;
import javafx.scene.control.CheckBox;
import javafx.scene.control.TableView;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class NetworkScreenTest {

    @TempDir
    Path folder;
    private TestServer server;
    private RunningApp app;

    @BeforeEach
    void start() throws Exception {
        server = TestServer.startWithRelay(folder, true);
        server.adminClient().createUser(new UserRequest("odin", null, null, null));
    }

    @AfterEach
    void stop() throws Exception {
        if (app != null) {
            app.close();
        }
        server.close();
    }

    private void open() throws Exception {
        open("Users, settings");
    }

    private void open(String tab) throws Exception {
        app = RunningApp.start(folder.resolve("config"), server.localCredentialPath()).connectLocally();
        app.click(tab);
    }

    @SuppressWarnings("unchecked")
    private List<UserView> userRows() {
        return app.onFx(() -> List.copyOf(app.robot.lookup("#users").queryAs(TableView.class).getItems()));
    }

    private boolean selected(String checkBox) {
        return app.onFx(() -> app.robot.lookup(checkBox).queryAs(CheckBox.class).isSelected());
    }

    @Test
    void usersAreListedCreatedAndDeleted() throws Exception {
        open();
        app.clickCell("#users", "odin");

        app.type("#newUserName", "freya");
        app.click("#createUser");
        app.await("freya on the server", () -> server.adminClient().users().stream()
                .anyMatch(user -> user.name().equals("freya")));
        app.await("freya listed", () -> userRows().stream().anyMatch(user -> user.name().equals("freya")));
        app.screenshot("desktop-users");

        app.clickCell("#users", "freya");
        app.click("#deleteUser");
        app.await("freya gone from the server", () -> server.adminClient().users().stream()
                .noneMatch(user -> user.name().equals("freya")));
        app.await("freya gone from the table", () -> userRows().stream().map(UserView::name).toList()
                .equals(List.of("odin")));
    }

    @Test
    void theSettingsShownAreTheServersAndSaveToIt() throws Exception {
        server.adminClient().updateSettings(new SettingsView(true, false, 30));
        open();
        app.await("the server's settings", () -> selected("#devicesApproval") && !selected("#usersApproval")
                && app.text("#keyDurationDays").equals("30"));

        app.click("#devicesApproval");
        app.click("#usersApproval");
        app.type("#keyDurationDays", "1w"); // a duration of whole days, or days alone
        app.click("#saveSettings");
        app.await("saved on the server", () -> server.adminClient().settings()
                .equals(new SettingsView(false, true, 7)));
        app.await("the outcome in the status bar", () -> app.text("#statusMessage").equals("Settings saved"));
        app.screenshot("desktop-settings");

        // An emptied key duration is 0, the configuration's node.expiry (not "keep the last value").
        app.type("#keyDurationDays", "");
        app.click("#saveSettings");
        app.await("0 on the server", () -> server.adminClient().settings().devicesKeyDurationDays() == 0);
        app.await("0 shown", () -> app.text("#keyDurationDays").equals("0"));
    }

    @Test
    void theRelaySettingsAndTheLatencyReportAreShown() throws Exception {
        assertEquals(200, server.request("PUT", "/api/v1/derp", server.localToken(),
                "{\"relays\":[{\"regionId\":900,\"code\":\"home\",\"host\":\"relay.example.com\"}]}").statusCode());
        String key = server.adminClient().createPreAuthKey(new PreAuthKeyRequest("odin", null, true, false, false,
                "", null)).secret();
        Machine.named("near").hostinfo("{\"NetInfo\":{\"PreferredDERP\":999,\"DERPLatency\":{\"999-v4\":0.010,"
                + "\"900-v4\":0.050}}}").join(server.network, key);
        Machine.named("far").hostinfo("{\"NetInfo\":{\"PreferredDERP\":999,\"DERPLatency\":{\"999-v4\":0.030}}}")
                .join(server.network, key);
        open("Relays");

        app.await("the relay settings", () -> app.text("#derpSummary").contains("Embedded relay: on"));
        String summary = app.text("#derpSummary");
        assertTrue(summary.contains("Map URLs: none"), summary);
        assertTrue(summary.contains("Relays added here: 1"), summary);

        app.await("both regions listed", () -> latencyRows().stream().map(DerpLatencyReport.Region::regionId)
                .toList().equals(List.of(900, 999)));
        DerpLatencyReport.Region embedded = latencyRows().get(1);
        assertEquals(2, embedded.preferredBy());
        assertEquals(20.0, embedded.medianMs(), 1e-9);
        app.await("the embedded relay's row drawn", () -> cellShown("2 machines") && cellShown("900 home")
                && cellShown(String.format("%.1f ms", 20.0)) && cellShown(String.format("%.1f ms", 30.0)));
        app.screenshot("desktop-relays");
    }

    @SuppressWarnings("unchecked")
    private List<DerpLatencyReport.Region> latencyRows() {
        return app.onFx(() -> List.copyOf(app.robot.lookup("#derpLatency").queryAs(TableView.class).getItems()));
    }

    private boolean cellShown(String text) {
        return app.robot.from(app.robot.lookup("#derpLatency").queryAll()).lookup(".table-cell")
                .lookup((javafx.scene.Node cell) -> text.equals(((javafx.scene.control.TableCell<?, ?>) cell).getText()))
                .tryQuery().isPresent();
    }

    @Test
    void aRelayOfOurOwnIsAddedAndRemoved() throws Exception {
        open("Relays");
        app.await("the relay settings", () -> app.text("#derpSummary").contains("Relays added here: 0"));
        app.type("#relayRegion", "901");
        app.type("#relayCode", "lab");
        app.type("#relayHost", "relay.lab.example.com");
        app.click("#addRelay");
        app.await("added on the server", () -> server.adminClient().derp().value().relays().size() == 1);
        assertEquals("relay.lab.example.com", server.adminClient().derp().value().relays().getFirst().host());
        app.await("the outcome", () -> app.text("#statusMessage").equals("Added relay relay.lab.example.com"));

        app.clickCell("#ownRelays", "relay.lab.example.com");
        app.click("#removeRelay");
        app.answerDialog("OK");
        app.await("removed on the server", () -> server.adminClient().derp().value().relays().isEmpty());
    }

    @Test
    void aRelayChangeMadeElsewhereMeanwhileIsNotOverwritten() throws Exception {
        open("Relays");
        app.await("the relay settings", () -> app.text("#derpSummary").contains("Relays added here: 0"));
        // Someone else adds a relay after the window read the settings.
        assertEquals(200, server.request("PUT", "/api/v1/derp", server.localToken(),
                "{\"relays\":[{\"regionId\":900,\"code\":\"home\",\"host\":\"relay.example.com\"}]}").statusCode());
        app.type("#relayRegion", "901");
        app.type("#relayCode", "lab");
        app.type("#relayHost", "relay.lab.example.com");
        app.click("#addRelay");
        app.await("the conflict said", () -> app.text("#statusMessage").contains("changed elsewhere meanwhile"));
        assertEquals(List.of(900), server.adminClient().derp().value().relays().stream()
                .map(io.meshcontrol.api.DerpRelayView::regionId).toList(), "the other change is kept");
    }
}
