package io.meshcontrol.gui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.api.ApiKeyRequest;
import io.meshcontrol.api.UserRequest;
import io.meshcontrol.gui.connect.Profile;
import io.meshcontrol.server.testing.TestServer;
import java.nio.file.Path;
import javafx.scene.control.ComboBox;
import javafx.scene.input.KeyCode;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Saved servers switched from the window, and what the window says when the server goes or the key stops. */
class ServersAndFailuresTest {

    @TempDir
    Path folder;
    private TestServer server;
    private RunningApp app;

    @AfterEach
    void stop() throws Exception {
        if (app != null) {
            app.close();
        }
        if (server != null) {
            server.close();
        }
    }

    private void connectRemote(String name, String key) {
        app.click("#newServer");
        app.type("#serverName", name);
        app.type("#serverAddress", server.url().toString());
        app.type("#apiKey", key);
        app.click("#connect");
        app.awaitShown("#serverLabel");
    }

    @SuppressWarnings("unchecked")
    private ComboBox<Profile> chooser() {
        return app.robot.lookup("#serverChooser").queryAs(ComboBox.class);
    }

    @Test
    void anotherSavedServerIsChosenFromTheWindowAndTheStatusBarStartsAfresh() throws Exception {
        server = TestServer.start(folder);
        String secret = server.adminClient().createApiKey(new ApiKeyRequest(null, null, "desktop", null)).secret();
        app = RunningApp.start(folder.resolve("config"), server.localCredentialPath());
        connectRemote("office", secret);
        app.click("Users, settings");
        app.type("#keyDurationDays", "5");
        app.click("#saveSettings");
        app.await("the outcome", () -> app.text("#statusMessage").equals("Settings saved"));

        // The local server, chosen in the window: connected with no detour, the last server's outcome gone.
        app.robot.interact(() -> chooser().getSelectionModel().select(chooser().getItems().stream()
                .filter(Profile::isLocal).findFirst().orElseThrow()));
        app.await("connected to this computer's server", () -> app.robot.lookup("#serverChooser").tryQuery()
                .isPresent() && chooser().getValue().isLocal());
        assertFalse(app.text("#statusMessage").contains("Settings saved"), app.text("#statusMessage"));

        // And back, with the saved key.
        app.robot.interact(() -> chooser().getSelectionModel().select(chooser().getItems().stream()
                .filter(profile -> profile.name().equals("office")).findFirst().orElseThrow()));
        app.await("connected to office", () -> app.robot.lookup("#serverChooser").tryQuery().isPresent()
                && chooser().getValue().name().equals("office"));
        assertEquals("office", io.meshcontrol.gui.connect.DesktopSettings.in(folder.resolve("config")).stored()
                .lastProfile(), "the last server is remembered");
    }

    @Test
    void aServerThatGoesAwayIsSaidInWordsAndTheWindowIsNoLongerLive() throws Exception {
        server = TestServer.start(folder);
        app = RunningApp.start(folder.resolve("config"), server.localCredentialPath()).connectLocally();
        app.await("live", () -> app.text("#liveState").equals("● live"));
        server.close();
        server = null;
        app.await("not live", () -> app.text("#liveState").startsWith("○ not live"));
        app.robot.type(KeyCode.F5);
        app.await("the failure", () -> app.text("#statusMessage").startsWith("Reading the machines: cannot reach"));
        assertTrue(app.text("#statusMessage").contains("the connection was refused"), app.text("#statusMessage"));
        app.screenshot("desktop-server-gone");
    }

    @Test
    void aKeyExpiredWhileConnectedIsExplained() throws Exception {
        server = TestServer.start(folder);
        server.adminClient().createUser(new UserRequest("odin", null, null, null));
        var issued = server.adminClient().createApiKey(new ApiKeyRequest(null, null, "soon gone", null));
        app = RunningApp.start(folder.resolve("config"), server.localCredentialPath());
        connectRemote("office", issued.secret());
        server.adminClient().expireApiKey(issued.apiKey().prefix());
        app.robot.type(KeyCode.F5);
        app.await("the refusal", () -> app.text("#statusMessage").startsWith("Reading the machines: The server refused"
                + " the credential"));
    }
}
