package io.meshcontrol.gui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.api.NodeView;
import io.meshcontrol.api.SettingsView;
import io.meshcontrol.api.UserRequest;
import io.meshcontrol.core.testing.Machine;
import io.meshcontrol.gui.machines.RegisterDialog;
import io.meshcontrol.server.testing.TestServer;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** "Register a machine": a waiting interactive login looked up by its link, then approved or refused. */
class RegisterMachineTest {

    @TempDir
    Path folder;
    private TestServer server;
    private RunningApp app;

    @BeforeEach
    void start() throws Exception {
        server = TestServer.start(folder);
        server.adminClient().createUser(new UserRequest("odin", null, null, null));
        app = RunningApp.start(folder.resolve("config"), server.localCredentialPath()).connectLocally();
    }

    @AfterEach
    void stop() throws Exception {
        app.close();
        server.close();
    }

    /** A machine that ran tailscale up without a key: it waits at its /register/ link. */
    private String waiting(String name) {
        return server.network.pendingLogins().start(Machine.named(name).hostinfo("{\"Hostname\":\"" + name
                + "\",\"OS\":\"linux\",\"OSVersion\":\"12\",\"IPNVersion\":\"1.102.5-tabc\"}").request(), false);
    }

    @Test
    void theLinkIsReadAsTheId() {
        assertEquals("abc123", RegisterDialog.authId("https://mesh.example.com/prefix/register/abc123?x=1"));
        assertEquals("abc123", RegisterDialog.authId("  abc123 "));
        assertEquals("abc123", RegisterDialog.authId("http://127.0.0.1:8080/register/abc123/"));
    }

    @Test
    void aWaitingLoginIsShownAndApprovedForAUser() {
        server.adminClient().updateSettings(new SettingsView(true, null, null));
        String authId = waiting("desk");
        app.click("#registerMachine");
        app.type("#registerLink", server.url().resolve("/register/" + authId).toString());
        app.click("#registerLookUp");
        app.await("the machine's details", () -> app.text("#registerDetails").startsWith("Machine desk"));
        assertTrue(app.text("#registerDetails").startsWith("Machine desk, linux 12, client 1.102.5"),
                app.text("#registerDetails"));
        app.await("the user offered", () -> "odin".equals(app.onFx(() -> app.robot.lookup("#registerUser")
                .queryAs(javafx.scene.control.ComboBox.class).getValue())));
        app.click("#registerConfirm");
        app.await("registered", () -> app.text("#registerOutcome").startsWith("Registered desk"));
        NodeView desk = server.adminClient().nodes().stream().filter(node -> node.hostname().equals("desk"))
                .findFirst().orElseThrow();
        assertEquals("odin", desk.user());
        assertTrue(desk.authorized(), "approved in the same step");
    }

    @Test
    void aWaitingLoginIsRefused() {
        String authId = waiting("intruder");
        app.click("#registerMachine");
        app.type("#registerLink", authId);
        app.click("#registerLookUp");
        app.await("the machine's details", () -> app.text("#registerDetails").startsWith("Machine intruder"));
        app.click("#registerRefuse");
        app.answerDialog("OK");
        app.await("refused", () -> app.text("#registerOutcome").equals("Refused intruder"));
        assertTrue(server.network.pendingLogins().refusal(authId).isPresent(), "the waiting client learns it");
        assertFalse(server.adminClient().nodes().stream().anyMatch(node -> node.hostname().equals("intruder")));
    }

    @Test
    void anUnknownLinkIsSaidSo() {
        app.click("#registerMachine");
        app.type("#registerLink", "nosuchlogin");
        app.click("#registerLookUp");
        app.await("said", () -> app.text("#registerOutcome").startsWith("No machine waits with that link"));
    }
}
