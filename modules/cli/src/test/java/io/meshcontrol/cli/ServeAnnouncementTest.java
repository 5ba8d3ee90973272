package io.meshcontrol.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What svc serve announces once it is ready. */
class ServeAnnouncementTest {

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
    void onceReadyItNamesTheConsoleAndTheExactJoinLine() {
        String steps = ServeCommand.nextSteps("https://mesh.example.com/");
        assertTrue(steps.contains("svc users create --name alice --role admin"), steps);
        assertTrue(steps.contains("svc preauthkeys create --user alice"), steps);
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
}
