package io.meshcontrol.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** {@code svc audit list}: the audit log through the CLI, with the API's filters and paging. */
class AuditCliTest {

    @TempDir
    Path folder;
    @RegisterExtension
    final ServerWithCli cli = ServerWithCli.in(() -> folder);

    @Test
    void listsEntriesNewestFirstWithFilters() {
        for (String name : List.of("odin", "thor", "loki")) {
            assertEquals(0, cli.run("users", "create", "--name", name).exitCode());
        }
        assertEquals(0, cli.run("apikeys", "create", "--description", "ci").exitCode());

        CliRun all = cli.run("audit", "list");
        assertEquals(0, all.exitCode(), all.toString());
        List<String> lines = all.out().lines().toList();
        assertTrue(lines.getFirst().startsWith("ID") && lines.getFirst().contains("SOURCE"), all.out());
        assertTrue(lines.get(1).contains("apikey.create") && lines.get(1).contains("local-admin")
                && lines.get(1).contains("127.0.0.1"), "newest first: " + all.out());

        CliRun users = cli.run("audit", "list", "--action", "user.", "--limit", "2");
        assertEquals(0, users.exitCode(), users.toString());
        assertEquals(3, users.out().lines().count(), "a header and two entries: " + users.out());
        assertTrue(users.out().contains("name=loki") && users.out().contains("name=thor"), users.out());
        assertFalse(users.out().contains("name=odin"), users.out());
        assertTrue(users.err().startsWith("older entries: --before "), users.err());

        String before = users.err().trim().substring("older entries: --before ".length());
        CliRun older = cli.run("audit", "list", "--action", "user.", "--before", before, "--output", "json");
        assertEquals(0, older.exitCode(), older.toString());
        assertTrue(older.out().contains("\"name\" : \"odin\"") && !older.out().contains("loki"), older.out());
        assertEquals("", older.err(), "the last page");
    }

    @Test
    void aBadTimeIsOneLineNamingIt() {
        CliRun refused = cli.run("audit", "list", "--since", "yesterday");
        assertEquals(1, refused.exitCode(), refused.toString());
        assertEquals(1, refused.err().lines().count(), refused.err());
        assertTrue(refused.err().contains("since") && refused.err().endsWith("(HTTP 400)\n"), refused.err());
    }
}
