package io.meshcontrol.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.core.model.Role;
import io.meshcontrol.core.testing.AuthKey;
import io.meshcontrol.core.testing.Machine;
import io.meshcontrol.core.testing.TestNetwork;
import io.meshcontrol.server.testing.TestCertificateAuthority;
import io.meshcontrol.server.testing.TestServer;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What svc serve announces once it is ready. */
class ServeAnnouncementTest {

    @TempDir
    Path folder;

    @Test
    void theReadyLineNeverClaimsHttpsForThePlainHttpListener() {
        String line = ServeCommand.readyLine("T1", URI.create("http://127.0.0.1:8080"), "https://mesh.example.com");
        assertTrue(line.contains("serving plain HTTP on http://127.0.0.1:8080"), line);
        assertTrue(line.contains("clients reach it at https://mesh.example.com (server_url), through a proxy that "
                + "terminates TLS"), line);
        assertEquals("network T1 ready at http://127.0.0.1:8080",
                ServeCommand.readyLine("T1", URI.create("http://127.0.0.1:8080"), "http://127.0.0.1:8080"));
    }

    @Test
    void theReadyLineSaysHttpsWhenTheServerServesItsCertificate() {
        TestCertificateAuthority.create("Test Root").issue(folder.resolve("cert.pem"), folder.resolve("key.pem"),
                "localhost");
        try (TestServer server = TestServer.in(folder).set("server_url", "https://localhost:8443")
                .set("tls_cert_path", folder.resolve("cert.pem").toString())
                .set("tls_key_path", folder.resolve("key.pem").toString()).start()) {
            URI listener = server.server.localUrl();
            String line = ServeCommand.readyLine("T1", listener, "https://localhost:8443");
            assertEquals("network T1 ready: serving HTTPS on " + listener
                    + "; clients reach it at https://localhost:8443 (server_url)", line);
            assertTrue(listener.toString().startsWith("https://127.0.0.1:"), line);
        }
    }

    @Test
    void onceReadyItNamesTheConsoleAndTheExactJoinLine() {
        String steps = ServeCommand.nextSteps("svc", "https://mesh.example.com/");
        assertTrue(steps.contains("svc users create --name alice --role admin"), steps);
        assertTrue(steps.contains("svc preauthkeys create --user alice --reusable"), steps);
        assertTrue(steps.contains("tailscale up --login-server=https://mesh.example.com/ --auth-key="), steps);
        assertTrue(steps.contains("the browser console:         https://mesh.example.com/admin"), steps);
        assertTrue(steps.contains("svc apikeys create"), steps);
    }

    @Test
    void withOidcLoginOnTheNextStepsSaySo() {
        String step = ServeCommand.oidcLoginStep("https://mesh.example.com", "https://id.example.com/realms/corp");
        assertEquals("  OIDC login is on (https://id.example.com/realms/corp): tailscale up "
                + "--login-server=https://mesh.example.com without a key, or the console's sign-in, sends people to "
                + "the issuer", step);
    }

    @Test
    void anIssuerThatCannotBeReachedStopsServeWithOneLineNamingItAndTheCause(@TempDir Path folder) throws Exception {
        Path config = Files.writeString(folder.resolve("config.yaml"), """
                listen_addr: 127.0.0.1:0
                metrics_listen_addr: null
                derp:
                  server:
                    stun_listen_addr: 127.0.0.1:0
                    tls_listen_addr: 127.0.0.1:0
                database:
                  sqlite:
                    path: %s
                cli:
                  local_credential_path: %s
                egress:
                  allow_loopback_targets: true
                oidc:
                  issuer: http://127.0.0.1:9/nowhere
                  client_id: mesh
                """.formatted(folder.resolve("data/db.sqlite"), folder.resolve("data/cli.json")));
        CliRun serve = CliRun.withConfig(folder, config, "serve");
        assertEquals(Svc.FAILED, serve.exitCode(), serve.toString());
        List<String> said = serve.err().lines().filter(line -> line.startsWith("svc: ")).toList();
        assertEquals(List.of("svc: not starting: the OIDC issuer http://127.0.0.1:9/nowhere is unavailable (cannot "
                + "fetch the OIDC discovery document at http://127.0.0.1:9/nowhere/.well-known/openid-configuration: "
                + "connection refused); start it, or set oidc.only_start_if_oidc_is_available: false to start without "
                + "it"), said, serve.toString());
        assertFalse(serve.err().contains("unexpected"), serve.err());
    }

    @Test
    void theNextStepsNameTheCommandAsStartedAndAKeyForEachMachine() {
        List<String> lines = ServeCommand.nextSteps("./svc", "http://127.0.0.1:8080").lines().toList();
        for (String line : lines) {
            assertFalse(line.replace("./svc ", "").contains("svc "), "a bare svc in: " + line);
        }
        assertTrue(lines.contains("  2. create a key to join:     ./svc preauthkeys create --user alice --reusable"),
                lines.toString());
        assertTrue(lines.contains("  3. join each machine:        tailscale up --login-server=http://127.0.0.1:8080"
                + " --auth-key=<that key>"), lines.toString());
        assertTrue(lines.contains("  ./svc --help lists everything the CLI does"), lines.toString());
    }

    @Test
    void theCommandNameIsWhatTheLauncherPassesElseSvc() {
        assertEquals("./svc", new CliContext(System.out, System.err, Map.of("SVC_COMMAND_NAME", "./svc"), folder, folder)
                .commandName());
        assertEquals("svc", new CliContext(System.out, System.err, Map.of(), folder, folder).commandName());
    }

    @Test
    void theNextStepsAreLeftOutOnceTheNetworkHasUsersAndMachines() {
        TestNetwork net = new TestNetwork(folder);
        try {
            assertTrue(ServeCommand.needsFirstSteps(net.network.snapshots().current()), "a new network");
            net.user("alice", Role.ADMIN);
            assertTrue(ServeCommand.needsFirstSteps(net.network.snapshots().current()), "a user, no machine");
            net.join(Machine.named("laptop"), net.authKey(AuthKey.forUser("alice")));
            assertFalse(ServeCommand.needsFirstSteps(net.network.snapshots().current()), "a user and a machine");
        } finally {
            net.network.close();
        }
    }
}
