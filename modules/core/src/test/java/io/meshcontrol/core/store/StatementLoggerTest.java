package io.meshcontrol.core.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code database.debug} and {@code database.query_log.*}: what the SQL log shows. */
class StatementLoggerTest {

    @TempDir
    Path folder;
    private final Logger sql = Logger.getLogger("io.meshcontrol.core.store.sql");
    private final List<String> lines = new CopyOnWriteArrayList<>();
    private final Handler handler = new Handler() {
        @Override
        public void publish(LogRecord record) {
            lines.add(record.getLevel() + " " + record.getMessage());
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };
    private Level before;

    @BeforeEach
    void capture() {
        before = sql.getLevel();
        sql.setLevel(Level.ALL);
        sql.addHandler(handler);
    }

    @AfterEach
    void release() {
        sql.removeHandler(handler);
        sql.setLevel(before);
    }

    private void lookUp(StatementLogger logger) {
        Database database = Database.open(folder.resolve("db.sqlite"), true, logger);
        lines.clear();
        database.jdbi().useHandle(h -> Lookups.one(h.createQuery("SELECT name FROM users WHERE name = :name")
                .bind("name", "s3cret-name").mapTo(String.class)));
    }

    @Test
    void debugLogsEveryStatementWithPlaceholdersOnly() {
        lookUp(new StatementLogger(true, true, Duration.ZERO, false));
        assertEquals(1, lines.size(), lines.toString());
        assertTrue(lines.getFirst().startsWith("FINE SQL ("), lines.getFirst());
        assertTrue(lines.getFirst().contains("SELECT name FROM users WHERE name = :name"), lines.getFirst());
        assertFalse(lines.getFirst().contains("s3cret-name"), "parameterized: no bound values");
    }

    @Test
    void withoutParameterizedTheBoundValuesAreShown() {
        lookUp(new StatementLogger(true, false, Duration.ZERO, false));
        assertTrue(lines.getFirst().contains("s3cret-name"), lines.getFirst());
    }

    @Test
    void withoutDebugNothingButSlowStatementsIsLogged() {
        lookUp(new StatementLogger(false, false, Duration.ZERO, false));
        assertEquals(List.of(), lines);
        // Every statement takes at least 0 ms: a threshold of 1 ns rounds to 0 ms and marks each one slow.
        lookUp(new StatementLogger(false, false, Duration.ofNanos(1), false));
        assertEquals(1, lines.size(), lines.toString());
        assertTrue(lines.getFirst().startsWith("WARNING slow SQL statement"), lines.getFirst());
        assertFalse(lines.getFirst().contains("s3cret-name"), "a slow statement is logged without its values");
    }

    @Test
    void logNotFoundShowsLookupsThatFoundNoRowAndOnlyThose() {
        lookUp(new StatementLogger(false, true, Duration.ZERO, true));
        assertEquals(1, lines.size(), lines.toString());
        assertTrue(lines.getFirst().startsWith("INFO no row found by SQL ("), lines.getFirst());
        assertTrue(lines.getFirst().contains("SELECT name FROM users WHERE name = :name"), lines.getFirst());
        assertFalse(lines.getFirst().contains("s3cret-name"), "parameterized: no bound values");

        Database database = Database.open(folder.resolve("db.sqlite"), true,
                new StatementLogger(false, true, Duration.ZERO, true));
        database.jdbi().useHandle(h -> h.createUpdate("INSERT INTO users (id, name, role, created_at) VALUES (1, 'odin', 'member', 0)")
                .execute());
        lines.clear();
        var found = database.jdbi().withHandle(h -> Lookups.one(
                h.createQuery("SELECT name FROM users WHERE name = 'odin'").mapTo(String.class)));
        assertEquals("odin", found.orElseThrow());
        assertEquals(List.of(), lines, "a lookup that found its row is not logged");
    }

    @Test
    void withoutLogNotFoundAMissingRowIsNotLogged() {
        lookUp(new StatementLogger(false, true, Duration.ZERO, false));
        assertEquals(List.of(), lines);
    }
}
