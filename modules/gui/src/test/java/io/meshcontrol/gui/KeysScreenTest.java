package io.meshcontrol.gui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.api.MeshClient;
import io.meshcontrol.api.UserRequest;
import io.meshcontrol.core.BuildInfo;
import io.meshcontrol.core.testing.Machine;
import io.meshcontrol.server.testing.TestServer;
import java.nio.file.Path;
import javafx.scene.input.Clipboard;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KeysScreenTest {

    @TempDir
    Path folder;
    private TestServer server;
    private RunningApp app;

    @BeforeEach
    void start() throws Exception {
        server = TestServer.start(folder);
        server.adminClient().createUser(new UserRequest("odin", null, null, null));
        app = RunningApp.start(folder.resolve("config"), server.localCredentialPath()).connectLocally();
        app.click("Keys");
    }

    @AfterEach
    void stop() throws Exception {
        app.close();
        server.close();
    }

    @Test
    void aNewApiKeyIsShownOnceAndWorks() {
        app.type("#apiKeyDescription", "laptop admin");
        app.click("#createApiKey");
        app.await("the secret", () -> !app.text("#issuedSecret").isEmpty());
        String secret = app.text("#issuedSecret");
        app.click("#copySecret");
        assertEquals(secret, app.onFx(() -> Clipboard.getSystemClipboard().getString()));
        assertEquals(server.adminClient().server().tailnetId(),
                new MeshClient(server.url(), secret, false, BuildInfo.version(), warning -> { }).server().tailnetId(),
                "the key authenticates");
        assertTrue(server.adminClient().apiKeys().stream().anyMatch(key -> "laptop admin".equals(key.description())));
        app.screenshot("desktop-api-key");
        app.click("Done");
        app.await("the secret forgotten", () -> app.text("#issuedSecret").isEmpty());
    }

    @Test
    void aPreAuthKeyComesWithTheCommandThatJoinsAMachine() {
        app.type(".combo-box .text-field", "odin");
        app.click("#preAuthReusable");
        app.click("#createPreAuthKey");
        app.await("the secret", () -> !app.text("#issuedSecret").isEmpty());
        String secret = app.text("#issuedSecret");
        String serverUrl = server.adminClient().server().serverUrl();
        assertEquals("tailscale up --login-server " + serverUrl + " --auth-key " + secret, app.text("#joinCommand"));
        app.screenshot("desktop-pre-auth-key");

        // The key joins a machine, which the same window then lists.
        Machine.named("joined").join(server.network, secret);
        app.click("Machines");
        app.await("joined listed", () -> server.adminClient().nodes().size() == 1
                && app.robot.lookup(".table-cell").lookup((javafx.scene.Node cell) ->
                        "joined".equals(((javafx.scene.control.TableCell<?, ?>) cell).getText())).tryQuery().isPresent());
    }
}
