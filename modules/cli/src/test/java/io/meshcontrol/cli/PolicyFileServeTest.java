package io.meshcontrol.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.api.ApiException;
import io.meshcontrol.api.MeshClient;
import io.meshcontrol.core.testing.Await;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code svc serve} with {@code policy.mode: file}, as a separate process: the file is the policy, the API refuses
 * to save, an edit is picked up, SIGHUP reloads instead of ending the process, and a bad file stops the start.
 */
@EnabledOnOs({OS.LINUX, OS.MAC})
class PolicyFileServeTest {

    private static final String FIRST = "{\"tagOwners\": {\"tag:web\": []}}\n";
    private static final String HUP_IGNORED = "SIGHUP is ignored in this process";
    private static final String SECOND = "{\n  // edited\n  \"tagOwners\": {\"tag:web\": [], \"tag:db\": []},\n}\n";

    @TempDir
    Path folder;

    @Test
    void theFileIsThePolicyAndSighupReloadsIt() throws Exception {
        Path policy = folder.resolve("policy/policy.hujson");
        Files.createDirectories(policy.getParent());
        Files.writeString(policy, FIRST);
        Path log = folder.resolve("serve.log");
        Process serve = ServeProcess.start(folder, config(policy), log);
        try {
            MeshClient client = ServeProcess.awaitClient(folder.resolve("data/cli.json"), serve);
            assertEquals(FIRST, client.policy().policy());
            ApiException refused = org.junit.jupiter.api.Assertions.assertThrows(ApiException.class,
                    () -> client.setPolicy(SECOND));
            assertEquals(409, refused.status());

            Files.writeString(policy, SECOND);
            Await.until("an edited file is picked up", Await.DEFAULT_TIMEOUT,
                    () -> client.policy().policy().equals(SECOND), () -> ServeProcess.log(log));

            Assumptions.assumeFalse(ServeProcess.log(log).contains(HUP_IGNORED),
                    "these tests run with SIGHUP ignored (nohup), which svc serve inherits");
            hangUp(serve);
            Await.until("SIGHUP reloads the policy file", Await.DEFAULT_TIMEOUT,
                    () -> ServeProcess.log(log).contains("SIGHUP: reloading the policy file"), () -> ServeProcess.log(log));
            assertTrue(serve.isAlive(), "SIGHUP reloads; it does not end the server");
            assertEquals(SECOND, client.policy().policy());
        } finally {
            serve.destroy();
            serve.waitFor(30, TimeUnit.SECONDS);
        }
    }

    @Test
    void startedWithSighupIgnoredItSaysSoAndKeepsRunning() throws Exception {
        Path policy = folder.resolve("policy.hujson");
        Files.writeString(policy, FIRST);
        Path log = folder.resolve("serve.log");
        Process serve = ServeProcess.start(folder, config(policy), log, "nohup");
        try {
            ServeProcess.awaitClient(folder.resolve("data/cli.json"), serve);
            Await.until("SIGHUP is ignored", Await.DEFAULT_TIMEOUT,
                    () -> ServeProcess.log(log).contains(HUP_IGNORED), () -> ServeProcess.log(log));
            hangUp(serve);
            Thread.sleep(1000);
            assertTrue(serve.isAlive(), "an ignored SIGHUP ends nothing");
        } finally {
            serve.destroy();
            serve.waitFor(30, TimeUnit.SECONDS);
        }
    }

    @Test
    void aBadPolicyFileStopsTheStart() throws Exception {
        Path policy = folder.resolve("policy.hujson");
        Files.writeString(policy, "{\"acls\": [{\"action\": \"accept\", \"src\": [\"tag:x\"], \"dst\": [\"*:*\"]}]}");
        Path log = folder.resolve("serve.log");
        Process serve = ServeProcess.start(folder, config(policy), log);
        assertTrue(serve.waitFor(60, TimeUnit.SECONDS), "svc serve should stop");
        assertEquals(1, serve.exitValue());
        assertTrue(ServeProcess.log(log).contains("svc: policy file " + policy + ": src=tag not found: \"tag:x\""), ServeProcess.log(log));
    }

    private Path config(Path policy) throws IOException {
        Path config = folder.resolve("config.yaml");
        Files.writeString(config, """
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
                policy:
                  mode: file
                  path: %s
                """.formatted(folder.resolve("data/db.sqlite"), folder.resolve("data/cli.json"), policy));
        return config;
    }

    private static void hangUp(Process serve) throws Exception {
        new ProcessBuilder("kill", "-HUP", Long.toString(serve.pid())).start().waitFor(10, TimeUnit.SECONDS);
    }


}
