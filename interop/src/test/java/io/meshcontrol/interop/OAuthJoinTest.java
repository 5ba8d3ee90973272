package io.meshcontrol.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.api.MeshClient;
import io.meshcontrol.api.NodeView;
import io.meshcontrol.api.OAuthClientRequest;
import io.meshcontrol.api.SettingsView;
import io.meshcontrol.core.model.AuditEntry;
import io.meshcontrol.core.state.OAuthClients;
import io.meshcontrol.server.testing.OidcIssuerFixture;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Real {@code tailscale} joining with trust credentials (spec "Joining nodes with an OAuth client"): an OAuth client
 * secret given as the auth key, which the client exchanges for a token and a single-use tagged key on our server;
 * and workload identity federation, where the client exchanges an ID token from a real OIDC issuer.
 */
class OAuthJoinTest {

    private static final Duration SOON = Duration.ofSeconds(30);
    private static final Duration EPHEMERAL_TIMEOUT = Duration.ofSeconds(65);

    @RegisterExtension
    final TailscaleNodes nodes = new TailscaleNodes();

    @TempDir
    Path folder;

    private TestNetwork network;
    private MeshClient admin;

    static Stream<ClientVersion> versions() {
        return ClientVersions.all();
    }

    private void startServer() throws Exception {
        // The test's OIDC issuer runs on loopback, which outgoing requests may reach only when allowed.
        network = TestNetwork.start(folder, nodes, EPHEMERAL_TIMEOUT, Map.of("egress.allow_loopback_targets", "true"));
        admin = network.admin();
        admin.setPolicy("""
                {"tagOwners": {"tag:ci": [], "tag:prod": []}}
                """);
    }

    @AfterEach
    void stop() throws Exception {
        if (network != null) {
            network.close();
        }
    }

    /** The secret of a new OAuth client that may mint tag:ci keys, in the vendor's form the node client rewrites. */
    private String vendorSecret() {
        String secret = admin.createOAuthClient(new OAuthClientRequest("client", List.of("auth_keys"),
                List.of("tag:ci"), "ci", null, null, null, null)).secret();
        assertTrue(secret.startsWith("svckey-client-"), secret);
        return "tskey-client-" + secret.substring("svckey-client-".length());
    }

    private String baseUrl() {
        String url = network.loginServer().toString();
        return url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
    }

    @ParameterizedTest(name = "tailscale {0}")
    @MethodSource("versions")
    void clientSecretAsAuthKeyJoinsTaggedAndKeptWithEphemeralFalse(ClientVersion version) throws Exception {
        startServer();
        TailscaleNode ci = network.node(version, "ci");
        ci.up(network.loginServer(), vendorSecret() + "?baseURL=" + baseUrl() + "&ephemeral=false", "ci",
                "--advertise-tags=tag:ci").requireOk();
        assertTrue(ci.awaitStatus("running", NodeStatus::isRunning, SOON).isRunning());
        NodeView view = network.view("ci");
        assertEquals(List.of("tag:ci"), view.tags());
        assertFalse(view.ephemeral());
        assertTrue(view.authorized());
    }

    @ParameterizedTest(name = "tailscale {0}")
    @MethodSource("versions")
    void ephemeralIsTheDefaultAndPreauthorizedSkipsDeviceApproval(ClientVersion version) throws Exception {
        startServer();
        admin.updateSettings(new SettingsView(true, null, null));
        String secret = vendorSecret();
        TailscaleNode pre = network.node(version, "pre");
        pre.up(network.loginServer(), secret + "?baseURL=" + baseUrl() + "&preauthorized=true", "pre",
                "--advertise-tags=tag:ci").requireOk();
        NodeView view = network.view("pre");
        assertTrue(view.ephemeral(), "ephemeral defaults to true");
        assertTrue(view.authorized(), "preauthorized=true skips device approval");

        TailscaleNode held = network.node(version, "held");
        try (InteractiveLogin up = held.upAsync(network.loginServer(), "held",
                "--auth-key=" + secret + "?baseURL=" + baseUrl() + "&ephemeral=0", "--advertise-tags=tag:ci")) {
            held.awaitStatus("waiting for approval", s -> s.backendState() == BackendState.NeedsMachineAuth, SOON);
            assertFalse(network.view("held").authorized(), "preauthorized defaults to false: approval is needed");
            assertFalse(network.view("held").ephemeral());
        }
    }

    @ParameterizedTest(name = "tailscale {0}")
    @MethodSource("versions")
    void unknownAttributeIsRefusedAndTagsBeyondTheClientAreRefused(ClientVersion version) throws Exception {
        startServer();
        String secret = vendorSecret();
        TailscaleNode node = network.node(version, "x");
        CliResult unknown = node.up(network.loginServer(), secret + "?baseURL=" + baseUrl() + "&reusable=true", "x",
                "--advertise-tags=tag:ci");
        assertFalse(unknown.ok());
        assertTrue(unknown.output().contains("unknown attribute"), unknown.describe());
        CliResult prod = node.up(network.loginServer(), secret + "?baseURL=" + baseUrl(), "x", "--advertise-tags=tag:prod");
        assertFalse(prod.ok());
        assertTrue(prod.output().contains("requested tags [tag:prod] are not permitted"), prod.describe());
        assertTrue(admin.nodes().isEmpty());
    }

    @Test
    void workloadIdentityFederationJoinsWithATokenFromARealIssuer() throws Exception {
        startServer();
        try (OidcIssuerFixture oidc = OidcIssuerFixture.start()) {
            String id = admin.createOAuthClient(new OAuthClientRequest("federated", List.of("auth_keys"),
                    List.of("tag:ci"), "gha", oidc.issuer("ci"), "mesh", "repo:acme/*", null)).oauthClient().id();
            String jwt = oidc.clientCredentialsToken("ci", "repo:acme/app", "mesh");
            // Only releases with the identityfederation feature know --client-id (1.80.3 does not).
            TailscaleNode wif = network.node(ClientVersions.newest(), "wif");
            wif.cli(TailscaleNode.CLI_TIMEOUT, "up", "--login-server=" + network.loginServer(), "--client-id=" + id,
                    "--id-token=" + jwt, "--advertise-tags=tag:ci", "--hostname=wif").requireOk();
            assertTrue(wif.awaitStatus("running", NodeStatus::isRunning, SOON).isRunning());
            assertEquals(List.of("tag:ci"), network.view("wif").tags());
            AuditEntry exchange = network.server().network.auditLog().recent(OAuthClients.EXCHANGE_ACTION, 1)
                    .getFirst();
            assertEquals("granted", exchange.details().get("result"));
            assertEquals("repo:acme/app", exchange.details().get("subject"));
        }
    }
}
