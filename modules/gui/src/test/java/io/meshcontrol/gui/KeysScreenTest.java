package io.meshcontrol.gui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.api.ApiKeyRequest;
import io.meshcontrol.api.ApiKeyView;
import io.meshcontrol.api.IssuedPreAuthKey;
import io.meshcontrol.api.MeshClient;
import io.meshcontrol.api.PreAuthKeyRequest;
import io.meshcontrol.api.PreAuthKeyView;
import io.meshcontrol.api.UserRequest;
import io.meshcontrol.core.BuildInfo;
import io.meshcontrol.core.testing.Machine;
import io.meshcontrol.server.testing.TestServer;
import java.nio.file.Path;
import javafx.scene.input.Clipboard;
import javafx.scene.input.KeyCode;
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
        app.click("#dismissSecret");
        app.await("the secret forgotten", () -> app.text("#issuedSecret").isEmpty());
    }

    @Test
    void aPreAuthKeyComesWithTheCommandThatJoinsAMachine() {
        // The user picker is a list to choose from, not a field to type in; the first user is chosen already.
        app.await("odin chosen", () -> "odin".equals(app.robot.lookup("#preAuthUser")
                .queryAs(javafx.scene.control.ComboBox.class).getValue()));
        assertFalse(app.onFx(() -> app.robot.lookup("#preAuthUser").queryAs(javafx.scene.control.ComboBox.class)
                .isEditable()));
        app.click("#preAuthReusable");
        app.click("#preAuthPreApproved");
        app.click("#createPreAuthKey");
        app.await("the secret", () -> !app.text("#issuedSecret").isEmpty());
        String secret = app.text("#issuedSecret");
        String serverUrl = server.adminClient().server().serverUrl();
        assertEquals("tailscale up --login-server " + serverUrl + " --auth-key " + secret, app.text("#joinCommand"));
        app.screenshot("desktop-pre-auth-key");
        PreAuthKeyView made = server.adminClient().preAuthKeys().getFirst();
        assertEquals("odin", made.user());
        assertTrue(made.preauthorized() && made.reusable(), "pre-approved and reusable as ticked");

        // The key joins a machine, which the same window then lists.
        Machine.named("joined").join(server.network, secret);
        app.click("Machines");
        app.await("joined listed", () -> server.adminClient().nodes().size() == 1
                && app.robot.lookup(".table-cell").lookup((javafx.scene.Node cell) ->
                        "joined".equals(((javafx.scene.control.TableCell<?, ?>) cell).getText())).tryQuery().isPresent());
    }

    @Test
    void anApiKeyIsExpired() {
        String prefix = server.adminClient().createApiKey(new ApiKeyRequest(null, null, "old laptop", null))
                .apiKey().prefix();
        app.robot.type(KeyCode.F5);
        app.clickCell("#apiKeys", "old laptop");
        app.click("#expireApiKey");
        app.await("expired on the server", () -> server.adminClient().apiKeys().stream()
                .anyMatch(key -> key.prefix().equals(prefix) && key.expired()));
        app.await("expired in the table", () -> app.onFx(() -> app.robot.lookup("#apiKeys")
                .queryAs(javafx.scene.control.TableView.class).getItems().stream()
                .anyMatch(key -> ((ApiKeyView) key).prefix().equals(prefix) && ((ApiKeyView) key).expired())));
        app.screenshot("desktop-api-key-expired");
    }

    @Test
    void aPreAuthKeyIsRevokedAndNoLongerJoins() {
        PreAuthKeyView kept = server.adminClient().createPreAuthKey(
                new PreAuthKeyRequest("odin", null, true, false, false, "", null)).preAuthKey();
        IssuedPreAuthKey revoked = server.adminClient().createPreAuthKey(
                new PreAuthKeyRequest("odin", null, true, false, false, "", null));
        app.robot.type(KeyCode.F5);
        app.clickCell("#preAuthKeys", revoked.preAuthKey().prefix());
        app.click("#revokePreAuthKey");
        app.await("revoked on the server", () -> !server.adminClient().preAuthKey(revoked.preAuthKey().id()).valid());
        assertTrue(server.adminClient().preAuthKey(kept.id()).valid(), "the other key is left alone");
        app.clickCell("#preAuthKeys", "the key was revoked");
        assertEquals("Revoked pre-auth key " + revoked.preAuthKey().prefix(), app.text("#statusMessage"));
        app.screenshot("desktop-pre-auth-key-revoked");
        RuntimeException refused = assertThrows(RuntimeException.class,
                () -> Machine.named("late").join(server.network, revoked.secret()), "a revoked key joins no machine");
        assertTrue(refused.getMessage().contains("revoked"), refused.getMessage());
    }

    @Test
    void revokingTheKeyWhoseSecretIsShownClosesTheSecret() {
        app.click("#createPreAuthKey");
        app.await("the secret", () -> !app.text("#issuedSecret").isEmpty());
        PreAuthKeyView made = server.adminClient().preAuthKeys().getFirst();
        app.clickCell("#preAuthKeys", made.prefix());
        app.click("#revokePreAuthKey");
        app.await("revoked on the server", () -> !server.adminClient().preAuthKey(made.id()).valid());
        app.await("the secret closed", () -> app.text("#issuedSecret").isEmpty());
    }

    @Test
    void aPreAuthKeyStartsFromTheSharedDefaultsAndReadsHumanDurations() {
        // the first user, odin, is chosen already
        app.click("#createPreAuthKey");
        app.await("the first key", () -> server.adminClient().preAuthKeys().size() == 1);
        PreAuthKeyView standard = server.adminClient().preAuthKeys().getFirst();
        assertEquals(io.meshcontrol.api.NewPreAuthKeyDefaults.STANDARD.reusable(), standard.reusable());
        assertEquals(io.meshcontrol.api.NewPreAuthKeyDefaults.STANDARD.preauthorized(), standard.preauthorized());
        assertEquals(24 * 60, Math.round(java.time.Duration.between(standard.createdAt(), standard.expiresAt())
                .toSeconds() / 60.0), "the shared default, one day");

        app.click("Done");
        app.type("#preAuthExpiration", "2w");
        app.click("#createPreAuthKey");
        app.await("the second key", () -> server.adminClient().preAuthKeys().size() == 2);
        PreAuthKeyView twoWeeks = server.adminClient().preAuthKeys().stream()
                .filter(key -> !key.id().equals(standard.id())).findFirst().orElseThrow();
        assertEquals(14 * 24 * 60, Math.round(java.time.Duration.between(twoWeeks.createdAt(), twoWeeks.expiresAt())
                .toSeconds() / 60.0));
    }

    @Test
    void severalPreAuthKeysAreRevokedWithOneConfirmedRequest() {
        PreAuthKeyView kept = server.adminClient().createPreAuthKey(
                new PreAuthKeyRequest("odin", null, true, false, false, "", null)).preAuthKey();
        PreAuthKeyView first = server.adminClient().createPreAuthKey(
                new PreAuthKeyRequest("odin", null, true, false, false, "", null)).preAuthKey();
        PreAuthKeyView second = server.adminClient().createPreAuthKey(
                new PreAuthKeyRequest("odin", null, true, false, false, "", null)).preAuthKey();
        app.robot.type(KeyCode.F5);
        app.selectRows("#preAuthKeys", first.prefix(), second.prefix());
        app.click("#revokePreAuthKey");
        app.await("the question", () -> app.robot.lookup(".dialog-pane .content").tryQuery().isPresent());
        assertTrue(app.text(".dialog-pane .content").startsWith("Revoke 2 pre-auth keys"),
                app.text(".dialog-pane .content"));
        app.answerDialog("OK");
        app.await("both revoked", () -> !server.adminClient().preAuthKey(first.id()).valid()
                && !server.adminClient().preAuthKey(second.id()).valid());
        assertTrue(server.adminClient().preAuthKey(kept.id()).valid(), "the unselected key is left alone");
        app.await("said", () -> app.text("#statusMessage").equals("Revoked 2 pre-auth keys"));
    }

    @Test
    void severalApiKeysAreExpiredWithOneConfirmedRequest() {
        String first = server.adminClient().createApiKey(new io.meshcontrol.api.ApiKeyRequest(null, null, "one", null))
                .apiKey().prefix();
        String second = server.adminClient().createApiKey(new io.meshcontrol.api.ApiKeyRequest(null, null, "two",
                null)).apiKey().prefix();
        app.robot.type(KeyCode.F5);
        app.selectRows("#apiKeys", first, second);
        app.click("#expireApiKey");
        app.answerDialog("OK");
        app.await("both expired", () -> server.adminClient().apiKeys().stream()
                .filter(key -> key.prefix().equals(first) || key.prefix().equals(second))
                .allMatch(ApiKeyView::expired));
    }
}
