package io.meshcontrol.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** {@code svc apps}: the real CLI against a running server. */
class AppsCliTest {

    @TempDir
    Path folder;
    @RegisterExtension
    final ServerWithCli cli = ServerWithCli.in(() -> folder);

    @Test
    void createShowUpdateListAndDelete() {
        CliRun created = cli.run("apps", "create", "--name", "github", "--domain", "github.com", "--domain",
                "*.github.io", "--connector", "tag:connector", "--route", "192.0.2.0/24");
        assertEquals(0, created.exitCode(), created.toString());
        String id = created.out().lines().skip(1).findFirst().orElseThrow().split(" +")[0];
        assertTrue(created.out().contains("github.com,*.github.io"), created.out());

        CliRun updated = cli.run("apps", "update", "--id", id, "--domain", "github.com");
        assertEquals(0, updated.exitCode(), updated.toString());
        assertTrue(updated.out().contains("tag:connector") && updated.out().contains("192.0.2.0/24"),
                "options left out keep their value: " + updated.out());
        assertFalse(updated.out().contains("github.io"), updated.out());

        CliRun shown = cli.run("apps", "show", "--id", id, "--output", "json");
        assertEquals(0, shown.exitCode(), shown.toString());
        assertTrue(shown.out().contains("\"connectorNodes\" : [ ]"), shown.out());

        assertTrue(cli.run("apps", "list").out().contains("github"));
        assertEquals(0, cli.run("apps", "delete", "--id", id).exitCode());
        assertFalse(cli.run("apps", "list").out().contains("github"));
        assertTrue(cli.server().network.auditLog().recent("app.delete", 1).size() == 1, "deletion audited");
    }

    @Test
    void anExitRouteIsRefusedInOneLine() {
        CliRun refused = cli.run("apps", "create", "--name", "all", "--route", "0.0.0.0/0");
        assertEquals(1, refused.exitCode());
        assertTrue(refused.err().contains("app route 0.0.0.0/0 is refused"), refused.err());
        assertEquals(1, refused.err().lines().count(), "one readable line");
    }
}
