package io.meshcontrol.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.core.model.Role;
import io.meshcontrol.core.state.Network;
import io.meshcontrol.core.state.NetworkOptions;
import io.meshcontrol.core.state.Users;
import io.meshcontrol.core.auth.Caller;
import io.meshcontrol.core.testing.MovableClock;
import io.meshcontrol.core.testing.PostgresCluster;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code svc db migrate} as an operator runs it; the copy itself is DatabaseMigrationTest's (core). */
class DbMigrateCliTest {

    @TempDir
    Path folder;

    @BeforeAll
    static void needsPostgres() {
        Assumptions.assumeTrue(PostgresCluster.installed(), "PostgreSQL is not installed (run-tests installs it)");
    }

    @Test
    void aNetworkMovesToPostgresWithATableOfWhatWasCopiedAndANonEmptyTargetIsOneLine() {
        Path file = folder.resolve("db.sqlite");
        Network network = Network.open(file, true, MovableClock.startingAt2026(), NetworkOptions.defaults());
        network.users().create(Caller.localAdmin(), new Users.NewUser("odin", null, null, Role.ADMIN));
        network.close();
        String url = PostgresCluster.shared().newEmptyDatabaseUrl();

        CliRun run = CliRun.run(folder, Map.of(), "db", "migrate", "--from", file.toString(), "--to", url);
        assertEquals(0, run.exitCode(), run.toString());
        assertTrue(run.out().lines().anyMatch(l -> l.matches("users\\s+1\\s+[0-9a-f]{64}")), run.out());
        assertTrue(run.out().contains(" rows; row counts and checksums match\n"), run.out());

        CliRun again = CliRun.run(folder, Map.of(), "db", "migrate", "--from", file.toString(), "--to", url);
        assertEquals(1, again.exitCode(), again.toString());
        assertEquals(1, again.err().lines().count(), again.err());
        assertTrue(again.err().startsWith("svc: " + url + " is not empty ("), again.err());
        assertEquals("", again.out());
    }
}
