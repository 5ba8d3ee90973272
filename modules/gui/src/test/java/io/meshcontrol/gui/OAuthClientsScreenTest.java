package io.meshcontrol.gui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.api.OAuthClientView;
import io.meshcontrol.server.testing.TestServer;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
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

    @Test
    void aFederatedIdentityIsCreatedWithItsTrustAndChanged() {
        app.click("#oauthKind");
        app.click("federated identity");
        app.awaitShown("#oauthIssuer");
        app.type("#oauthDescription", "deploys");
        app.type("#oauthScopes", "devices:core:read");
        app.type("#oauthIssuer", "https://token.actions.githubusercontent.com");
        app.type("#oauthSubject", "repo:example/app:*");
        app.setText("#oauthClaims", "repository_owner=example");
        app.click("#createOAuthClient");
        app.await("the identity on the server", () -> !server.adminClient().oauthClients().isEmpty());
        OAuthClientView made = server.adminClient().oauthClients().getFirst();
        assertEquals("federated", made.keyType());
        assertEquals("https://token.actions.githubusercontent.com", made.issuer());
        assertEquals("repo:example/app:*", made.subject());
        assertEquals(Map.of("repository_owner", "example"), made.customClaimRules());
        assertEquals(List.of("devices:core:read"), made.scopes());
        assertEquals("deploys", made.description());
        assertTrue(app.text("#oauthSecret").isEmpty(), "a federated identity has no secret to show");

        app.selectRows("#oauthClients", made.id());
        app.await("the form filled with it", () -> app.text("#oauthSubject").equals("repo:example/app:*"));
        app.type("#oauthDescription", "production deploys");
        app.click("#saveOAuthClient");
        app.await("the change saved", () -> "production deploys".equals(
                server.adminClient().oauthClients().getFirst().description()));
        OAuthClientView saved = server.adminClient().oauthClients().getFirst();
        assertEquals(made.id(), saved.id());
        assertEquals(made.subject(), saved.subject());
        assertEquals(made.audience(), saved.audience());
        assertEquals(made.customClaimRules(), saved.customClaimRules());
        app.await("said in the status bar", () -> app.text("#statusMessage").equals("Saved " + made.id()));
    }

    @Test
    void anIssuerThatIsNotAnHttpsUrlIsRefused() {
        app.click("#oauthKind");
        app.click("federated identity");
        app.awaitShown("#oauthIssuer");
        app.type("#oauthScopes", "devices:core:read");
        app.type("#oauthIssuer", "token.example.com");
        app.type("#oauthSubject", "repo:example/app:*");
        app.click("#createOAuthClient");
        app.await("the refusal", () -> app.text("#statusMessage").startsWith("Creating a federated identity: ")
                && app.text("#statusMessage").contains("issuer must be an https:// (or http://) URL"));
        assertTrue(server.adminClient().oauthClients().isEmpty());
    }
}
