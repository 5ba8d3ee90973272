package io.meshcontrol.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.api.AuditEntryView;
import io.meshcontrol.api.AuditQuery;
import io.meshcontrol.api.NodeView;
import io.meshcontrol.api.SettingsView;
import io.meshcontrol.server.testing.LoginBrowser;
import io.meshcontrol.server.testing.OidcIssuerFixture;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * OIDC login with the real client: {@code tailscale up} without a key prints the AuthURL; a headless browser follows
 * it to the issuer (mock-oauth2-server, its login form), logs in, and lands on the server's callback; the machine is
 * registered for the person, who became a user on this first login.
 */
class OidcLoginTest {

    private static final Duration SOON = Duration.ofSeconds(30);
    private static final Map<String, Object> FREYA = Map.of("email", "freya@example.com", "email_verified", true,
            "preferred_username", "freya", "name", "Freya");
    private static OidcIssuerFixture issuer;

    @RegisterExtension
    final TailscaleNodes nodes = new TailscaleNodes();

    @TempDir
    Path folder;

    private TestNetwork network;

    static Stream<ClientVersion> versions() {
        return ClientVersions.all();
    }

    @BeforeAll
    static void startIssuer() {
        issuer = OidcIssuerFixture.startWithLoginForm();
    }

    @AfterAll
    static void stopIssuer() {
        issuer.close();
    }

    @AfterEach
    void stop() throws Exception {
        if (network != null) {
            network.close();
        }
    }

    private void startServer() {
        network = TestNetwork.withEmbeddedRelay(folder, nodes, server -> server.reachableServerUrl()
                .set("egress.allow_loopback_targets", "true")
                .set("oidc.issuer", issuer.issuer("people"))
                .set("oidc.client_id", "mesh")
                .set("oidc.client_secret", "s3cret"));
    }

    @ParameterizedTest(name = "tailscale {0}")
    @MethodSource("versions")
    void tailscaleUpWithoutAKeyLogsThePersonInAtTheIssuer(ClientVersion version) {
        startServer();
        TailscaleNode laptop = network.node(version, "laptop");
        try (InteractiveLogin up = laptop.upAsync(network.loginServer(), "laptop")) {
            URI authUrl = up.awaitAuthUrl(SOON);
            LoginBrowser.Page page = new LoginBrowser().logIn(authUrl, "sub-freya", FREYA);
            assertEquals(200, page.status(), page.body());
            assertTrue(page.body().contains("joined the network as freya"), page.body());
            up.await(SOON).requireOk();
        }
        assertTrue(laptop.awaitStatus("running", NodeStatus::isRunning, SOON).isRunning());
        NodeView view = network.view("laptop");
        assertEquals("freya", view.user());
        assertEquals("interactive", view.registerMethod());
        assertEquals("freya@example.com", network.admin().user("freya").email(), "made by the first login");
    }

    /**
     * {@code tailscale up --force-reauth} on a logged-in machine asks for a login: the client must be sent to the
     * issuer, and the node keeps its key and expiry until the person has logged in again; then it has the new key
     * with the expiry the login gives (oidc.expiry, 180 days by default), audited.
     */
    @ParameterizedTest(name = "tailscale {0}")
    @MethodSource("versions")
    void forceReauthGoesThroughTheIssuerAndTheNodeKeepsALoginsKeyExpiry(ClientVersion version) {
        startServer();
        TailscaleNode laptop = network.node(version, "laptop");
        try (InteractiveLogin up = laptop.upAsync(network.loginServer(), "laptop")) {
            new LoginBrowser().logIn(up.awaitAuthUrl(SOON), "sub-freya", FREYA);
            up.await(SOON).requireOk();
        }
        laptop.awaitStatus("running", NodeStatus::isRunning, SOON);
        NodeView first = network.view("laptop");
        assertTrue(first.keyExpiry().isAfter(Instant.now().plus(Duration.ofDays(179))), "oidc.expiry: " + first);

        try (InteractiveLogin reauth = laptop.upAsync(network.loginServer(), "laptop", "--force-reauth")) {
            URI authUrl = reauth.awaitAuthUrl(SOON);
            NodeView waiting = network.view("laptop");
            assertEquals(first.nodeKey(), waiting.nodeKey(), "no new key before the login");
            assertEquals(first.keyExpiry(), waiting.keyExpiry(), "nor another expiry");
            LoginBrowser.Page page = new LoginBrowser().logIn(authUrl, "sub-freya", FREYA);
            assertTrue(page.body().contains("joined the network as freya"), page.body());
            reauth.await(SOON).requireOk();
        }
        laptop.awaitStatus("running after the re-authentication", NodeStatus::isRunning, SOON);
        NodeView after = network.view("laptop");
        assertEquals(first.id(), after.id());
        assertNotEquals(first.nodeKey(), after.nodeKey());
        assertFalse(after.keyExpiry().isBefore(first.keyExpiry()), "the login's expiry, not never: " + after);
        AuditEntryView entry = network.admin().audit(new AuditQuery(null, "node.register", after.id(), null, null,
                null, 1)).entries().getFirst();
        assertEquals("user:freya", entry.actor());
        assertEquals(first.keyExpiry().toString(), entry.details().get("oldKeyExpiry"));
    }

    @Test
    void aNewUserWaitingForApprovalHoldsTheMachineUntilSvcUsersApprove() throws Exception {
        startServer();
        network.admin().updateSettings(new SettingsView(null, true, null));
        TailscaleNode laptop = network.node(ClientVersions.newest(), "laptop");
        try (InteractiveLogin up = laptop.upAsync(network.loginServer(), "laptop")) {
            LoginBrowser.Page page = new LoginBrowser().logIn(up.awaitAuthUrl(SOON), "sub-freya", FREYA);
            assertTrue(page.body().contains("joins once an administrator approves you"), page.body());
            laptop.awaitStatus("held", s -> s.backendState() == BackendState.NeedsMachineAuth, SOON);
            assertFalse(network.admin().user("freya").approved());
            network.svc("users", "approve", "--name", "freya");
            laptop.awaitStatus("running after the user's approval", NodeStatus::isRunning, SOON);
            up.await(SOON).requireOk();
        }
        assertTrue(network.admin().user("freya").approved());
    }
}
