package io.meshcontrol.server.v2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.fail;

import io.meshcontrol.core.auth.Caller;
import io.meshcontrol.core.state.OAuthClients;
import io.meshcontrol.core.testing.AuthKey;
import io.meshcontrol.core.testing.GoCheckPrograms;
import io.meshcontrol.core.testing.Machine;
import io.meshcontrol.server.testing.OidcIssuerFixture;
import io.meshcontrol.server.testing.TestServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;

/**
 * The vendor's Go API client ({@code tailscale.com/client/tailscale/v2}, what its Terraform provider and Kubernetes
 * operator are built on) against our {@code /api/v2}: the Go tests in {@code interop/gov2} drive every method of the
 * resources served here and decode every answer strictly into the client's types. This side starts the server and
 * seeds it: a user with a laptop, a router advertising a subnet, a spare device per session to delete, and a
 * policy that lets the user's devices be tagged {@code tag:router}. Loopback egress is allowed so that webhook
 * test events reach the Go test's own receiver.
 *
 * <p>Needs Go on the PATH (and the Go module proxy the first time). Runs only when asked:
 *
 * <pre>
 * ./mvnw -B -q -pl modules/server -am verify -Dsvc.interop=true -Dtest=VendorGoClientInteropTest \
 *     -Dsurefire.failIfNoSpecifiedTests=false
 * </pre>
 *
 * <p>Every Go test runs twice: with an API key (Basic, as the Go client sends it) and as an OAuth client
 * ({@code MESH_OAUTH_CLIENT_ID}, {@code MESH_OAUTH_CLIENT_SECRET}: the client fetches a token from
 * {@code /api/v2/oauth/token} and sends it as Bearer; see {@code interop/gov2/README.md}). One more test authenticates
 * as a federated identity: the client exchanges an ID token from a real OIDC issuer at
 * {@code /api/v2/oauth/token-exchange}.
 */
@EnabledIfSystemProperty(named = "svc.interop", matches = "true")
class VendorGoClientInteropTest {

    @TempDir
    Path folder;

    @Test
    void theVendorsGoClientDrivesEveryResourceServedHere() throws Exception {
        Path tests = GoCheckPrograms.buildTests("gov2", folder);
        // The OIDC issuer and the webhook test's receiver run on loopback, which the server may reach only when
        // allowed.
        try (OidcIssuerFixture oidc = OidcIssuerFixture.start();
                TestServer server = TestServer.in(folder.resolve("server"))
                        .set("egress.allow_loopback_targets", "true").start()) {
            VendorCalls.createUser(server, "odin", "odin@example.com");
            String key = AuthKey.forUser("odin").reusable().create(server.network);
            Machine.named("laptop").join(server.network, key);
            Machine.named("router").advertising("10.1.0.0/16").join(server.network, key);
            Machine.named("spare-api-key").join(server.network, key);
            Machine.named("spare-oauth").join(server.network, key);
            server.network.policies().set(Caller.localAdmin(), """
                    {"tagOwners": {"tag:router": ["odin@example.com"]},
                     "acls": [{"action": "accept", "src": ["*"], "dst": ["*:*"]}]}""", null);
            String apiKey = server.network.apiKeys().create(Caller.localAdmin(), null, List.of(), "gov2", null)
                    .secret();

            OAuthClients.Issued client = server.network.oauthClients().create(Caller.localAdmin(),
                    new OAuthClients.Fields("client", List.of("all"), List.of("tag:router"), "gov2", null, null, null,
                            null));
            String federated = server.network.oauthClients().create(Caller.localAdmin(),
                    new OAuthClients.Fields("federated", List.of("devices:core:read"), List.of("tag:router"), "gov2",
                            oidc.issuer("ci"), "mesh", "repo:acme/*", null)).client().id();

            ProcessBuilder run = new ProcessBuilder(tests.toString(), "-test.v", "-test.count=1")
                    .redirectErrorStream(true)
                    .redirectOutput(folder.resolve("gov2.out").toFile());
            run.environment().putAll(Map.of("MESH_BASE_URL", server.url().toString(), "MESH_API_KEY", apiKey,
                    "MESH_OAUTH_CLIENT_ID", client.client().id(), "MESH_OAUTH_CLIENT_SECRET", client.secret(),
                    "MESH_FEDERATED_CLIENT_ID", federated,
                    "MESH_ID_TOKEN", oidc.clientCredentialsToken("ci", "repo:acme/app", "mesh")));
            Process go = run.start();
            if (!go.waitFor(5, TimeUnit.MINUTES)) {
                go.destroyForcibly();
                fail("the gov2 tests did not finish in time");
            }
            String output = Files.readString(folder.resolve("gov2.out"));
            System.out.print(output);
            assertEquals(0, go.exitValue(), "the vendor's Go client failed against /api/v2:\n" + output);
            assertFalse(output.contains("--- SKIP"), "every Go test ran:\n" + output);
        }
    }
}
