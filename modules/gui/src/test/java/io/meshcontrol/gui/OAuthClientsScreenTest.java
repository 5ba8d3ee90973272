package io.meshcontrol.gui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.api.OAuthClientView;
import io.meshcontrol.server.testing.TestServer;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OAuthClientsScreenTest {

    @TempDir
    Path folder;
    private TestServer server;
    private RunningApp app;

    @BeforeEach
    void start() throws Exception {
        server = TestServer.start(folder);
        app = RunningApp.start(folder.resolve("config"), server.localCredentialPath()).connectLocally();
        app.click("OAuth");
    }

    @AfterEach
    void stop() throws Exception {
        app.close();
        server.close();
    }

    @Test
    void aClientIsCreatedWithItsSecretOnceAndRevoked() {
        app.type("#oauthDescription", "ci");
        app.type("#oauthScopes", "devices:core:read");
        app.click("#createOAuthClient");
        app.await("the secret", () -> !app.text("#oauthSecret").isEmpty());
        OAuthClientView made = server.adminClient().oauthClients().getFirst();
        assertEquals(List.of("devices:core:read"), made.scopes());
        assertEquals("ci", made.description());
        app.screenshot("desktop-oauth");

        app.clickCell("#oauthClients", made.id());
        app.click("#revokeOAuthClient");
        app.answerDialog("OK");
        app.await("revoked on the server", () -> server.adminClient().oauthClients().stream()
                .noneMatch(client -> client.id().equals(made.id()) && !client.revoked()));
        app.await("its secret closed", () -> app.text("#oauthSecret").isEmpty());
    }

    @Test
    void anUnknownScopeIsRefused() {
        app.type("#oauthScopes", "nosuch:scope");
        app.click("#createOAuthClient");
        app.await("the refusal", () -> app.text("#statusMessage").startsWith("Creating an OAuth client: "));
        assertTrue(server.adminClient().oauthClients().isEmpty());
    }
}
