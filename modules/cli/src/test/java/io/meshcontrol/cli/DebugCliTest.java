package io.meshcontrol.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** {@code svc debug create-node}: hidden, and answered only by a server with {@code debug.node_api_enabled}. */
class DebugCliTest {

    @TempDir
    Path folder;
    @TempDir
    Path otherFolder;
    @RegisterExtension
    final ServerWithCli enabled = ServerWithCli.in(() -> folder).with("debug.node_api_enabled", "true");
    @RegisterExtension
    final ServerWithCli disabled = ServerWithCli.in(() -> otherFolder);

    @Test
    void createNodeRegistersAMachineWhenTheServerAllowsIt() {
        assertEquals(0, enabled.run("users", "create", "--name", "odin").exitCode());
        CliRun created = enabled.run("debug", "create-node", "--user", "odin", "--name", "fake-router",
                "--route", "10.2.0.0/16", "--output", "json");
        assertEquals(0, created.exitCode(), created.toString());
        assertTrue(created.out().contains("fake-router"), created.out());
        assertTrue(enabled.run("nodes", "list").out().contains("fake-router"));
    }

    @Test
    void withoutTheSettingItSaysWhichSettingInOneLine() {
        assertEquals(0, disabled.run("users", "create", "--name", "odin").exitCode());
        CliRun refused = disabled.run("debug", "create-node", "--user", "odin", "--name", "fake");
        assertTrue(refused.exitCode() != 0);
        assertEquals(1, refused.err().strip().lines().count(), refused.err());
        assertTrue(refused.err().contains("debug.node_api_enabled: true"), refused.err());
    }

    @Test
    void theCommandIsHiddenFromTheHelp() {
        assertFalse(enabled.run("--help").out().contains("debug"));
    }
}
