package io.meshcontrol.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** {@code svc webhooks}: every subcommand through the real CLI against a running server. */
class WebhooksCliTest {

    @TempDir
    Path folder;
    @RegisterExtension
    final ServerWithCli cli = ServerWithCli.in(() -> folder);

    @Test
    void createListUpdateRotateTestAndDelete() {
        // A private address: allowed by default; nothing needs to answer for these commands.
        CliRun created = cli.run("webhooks", "create", "--url", "http://10.0.0.1/hook", "--event", "nodeCreated",
                "--event", "nodeDeleted");
        assertEquals(0, created.exitCode(), created.toString());
        String secret = created.firstLine();
        assertTrue(secret.startsWith("svckey-webhook-"), created.toString());
        assertTrue(created.err().contains("not shown again"), created.err());

        CliRun listed = cli.run("webhooks", "list");
        assertEquals(0, listed.exitCode(), listed.toString());
        assertTrue(listed.out().contains("http://10.0.0.1/hook") && listed.out().contains("nodeCreated,nodeDeleted"),
                listed.out());
        assertFalse(listed.out().contains(secret), "secrets are never listed");
        String id = listed.out().lines().filter(l -> l.contains("10.0.0.1")).findFirst().orElseThrow().split(" +")[0];

        CliRun updated = cli.run("webhooks", "update", "--id", id, "--event", "userCreated");
        assertEquals(0, updated.exitCode(), updated.toString());
        assertTrue(updated.out().contains("userCreated") && !updated.out().contains("nodeCreated"), updated.out());

        CliRun rotated = cli.run("webhooks", "rotate", "--id", id);
        assertEquals(0, rotated.exitCode(), rotated.toString());
        assertTrue(rotated.firstLine().startsWith("svckey-webhook-") && !rotated.firstLine().equals(secret));

        CliRun tested = cli.run("webhooks", "test", "--id", id);
        assertEquals(0, tested.exitCode(), tested.toString());
        assertTrue(tested.err().contains("test event queued"), tested.err());
        assertEquals(0, cli.run("webhooks", "deliveries", "--id", id).exitCode());

        CliRun types = cli.run("webhooks", "event-types", "--output", "json");
        assertTrue(types.out().contains("\"nodeCreated\"") && types.out().contains("\"sshRecordingFailed\""),
                types.out());

        assertEquals(0, cli.run("webhooks", "delete", "--id", id).exitCode());
        CliRun gone = cli.run("webhooks", "get", "--id", id);
        assertEquals(1, gone.exitCode());
        assertEquals("svc: no webhook endpoint " + id + " (HTTP 404)\n", gone.err());
    }

    @Test
    void aLoopbackUrlIsRefusedInOneLine() {
        CliRun refused = cli.run("webhooks", "create", "--url", "http://127.0.0.1:9/hook");
        assertEquals(1, refused.exitCode());
        assertEquals(1, refused.err().lines().count(), refused.err());
        assertTrue(refused.err().contains("loopback"), refused.err());
    }
}
