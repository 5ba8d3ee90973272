package io.meshcontrol.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.api.LocalAccess;
import io.meshcontrol.api.UserRequest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The CLI finds the server running on this machine whatever folder either was started in. */
class LocalServerCliTest {

    @TempDir
    Path folder;

    @Test
    void aCliInAnotherFolderFindsTheServerStartedWithDefaults() throws Exception {
        Path serverFolder = Files.createDirectories(folder.resolve("server"));
        Path elsewhere = Files.createDirectories(folder.resolve("elsewhere"));
        // The account's runtime folder: the server and the CLI share it, as two shells of one login do.
        Map<String, String> env = Map.of("XDG_RUNTIME_DIR", Files.createDirectories(folder.resolve("run")).toString());
        Path config = serverFolder.resolve("config.yaml");
        Files.writeString(config, """
                listen_addr: 127.0.0.1:0
                metrics_listen_addr: null
                derp:
                  urls: []
                  server:
                    stun_listen_addr: 127.0.0.1:0
                """);
        Path credential = LocalAccess.defaultLocation(env, Path.of("unused"));
        Process serve = ServeProcess.start(serverFolder, config, folder.resolve("serve.log"), env);
        try {
            ServeProcess.awaitClient(credential, serve).createUser(new UserRequest("odin", null, null, null));

            CliRun run = CliRun.run(elsewhere, env, "users", "list");
            assertEquals(0, run.exitCode(), run.toString());
            assertTrue(run.out().contains("odin"), run.out());
        } finally {
            serve.destroy();
            serve.waitFor(30, TimeUnit.SECONDS);
        }
        assertTrue(Files.notExists(credential), "a stopped server removes its credential");
        String log = Files.readString(folder.resolve("serve.log"));
        assertTrue(log.contains("tailscale up --login-server=http://127.0.0.1:8080 --auth-key="), log);
    }

    @Test
    void aCredentialLeftByAKilledServerIsDetectedAndTheNextServeReplacesIt() throws Exception {
        Path config = folder.resolve("config.yaml");
        Path credential = folder.resolve("data/cli.json");
        Files.writeString(config, """
                listen_addr: 127.0.0.1:0
                metrics_listen_addr: null
                derp:
                  urls: []
                  server:
                    stun_listen_addr: 127.0.0.1:0
                cli:
                  local_credential_path: %s
                """.formatted(credential));
        Process killed = ServeProcess.start(folder, config, folder.resolve("killed.log"));
        try {
            ServeProcess.awaitClient(credential, killed);
        } finally {
            killed.destroyForcibly(); // SIGKILL: the server cannot remove its credential
            killed.waitFor(30, TimeUnit.SECONDS);
        }
        assertTrue(Files.exists(credential), "left behind");

        CliRun stale = CliRun.withConfig(folder, config, "users", "list");
        assertEquals(1, stale.exitCode(), stale.toString());
        assertEquals("svc: the local server that wrote " + credential + " (process " + killed.pid() + ") is no longer"
                + " running; configuration " + config + ". Start one with 'svc serve', or set cli.address and"
                + " cli.api_key to manage a remote server\n", stale.err());

        Process next = ServeProcess.start(folder, config, folder.resolve("next.log"));
        try {
            ServeProcess.awaitClient(credential, next);
            CliRun fresh = CliRun.withConfig(folder, config, "users", "list");
            assertEquals(0, fresh.exitCode(), fresh.toString());
        } finally {
            next.destroy();
            next.waitFor(30, TimeUnit.SECONDS);
        }
    }

    @Test
    void noServerNamesEveryPlaceThatWasChecked() {
        Path run = folder.resolve("run");
        CliRun cli = CliRun.run(folder, Map.of("XDG_RUNTIME_DIR", run.toString()), "nodes", "list");
        assertEquals(1, cli.exitCode(), cli.toString());
        assertEquals("svc: no server is running on this machine: there is no credential at "
                + run.resolve("svc/cli-credential.json") + " (the default, as cli.local_credential_path is not set);"
                + " no configuration file (looked for " + folder.resolve("config.yaml") + ", "
                + folder.resolve("home/.svc/config.yaml") + ", /etc/svc/config.yaml)."
                + " Start one with 'svc serve', or set cli.address and cli.api_key to manage a remote server\n", cli.err());
        CliRun fromCheckout = CliRun.run(folder, Map.of("XDG_RUNTIME_DIR", run.toString(), "SVC_COMMAND_NAME", "./svc"),
                "nodes", "list");
        assertTrue(fromCheckout.err().contains(" Start one with './svc serve', "), fromCheckout.err());
    }

    @Test
    void aConfiguredCredentialNamesTheFileThatSetIt() throws Exception {
        Path config = Files.writeString(folder.resolve("config.yaml"), "cli:\n  local_credential_path: absent.json\n");
        CliRun cli = CliRun.run(folder, Map.of(), "nodes", "list");
        assertEquals(1, cli.exitCode(), cli.toString());
        assertTrue(cli.err().startsWith("svc: no server is running on this machine: there is no credential at "
                + folder.resolve("absent.json") + " (in " + config + "); configuration " + config + "."), cli.err());
    }
}
