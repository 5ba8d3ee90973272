package io.meshcontrol.core.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.core.DatabaseUnreachable;
import io.meshcontrol.core.testing.Await;
import io.meshcontrol.core.testing.PostgresCluster;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Assumptions;

/** The PostgreSQL side of {@link Database}, on a real server ({@link PostgresCluster}). */
class PostgresDatabaseTest {

    private static final StatementLogger QUIET = new StatementLogger(false, true, Duration.ZERO, false);

    @BeforeAll
    static void needsPostgres() {
        Assumptions.assumeTrue(PostgresCluster.installed(), "PostgreSQL is not installed (run-tests installs it)");
    }

    @Test
    void aFreshDatabaseGetsEveryMigrationWithThePostgresVersionsOfTheEngineSpecificOnes() {
        Database db = Database.open(PostgresCluster.shared().newEmptyDatabase(), QUIET);
        assertEquals(Dialect.POSTGRES, db.dialect());
        assertNull(db.file());
        List<Integer> applied = db.jdbi().withHandle(h -> h.createQuery("SELECT CAST(version AS INTEGER) FROM "
                + "flyway_schema_history WHERE success ORDER BY installed_rank").mapTo(Integer.class).list());
        List<Integer> listed = MigrationIndex.readIndex().stream()
                .map(n -> n.substring(n.lastIndexOf('/') + 2, n.indexOf("__"))).map(Integer::valueOf).distinct()
                .toList();
        assertEquals(listed, applied);
        // The two columns SQLite keeps as integers are booleans here, so one binding serves both engines.
        List<String> types = db.jdbi().withHandle(h -> h.createQuery("SELECT data_type FROM information_schema.columns "
                + "WHERE (table_name = 'users' AND column_name = 'approved') "
                + "OR (table_name = 'nodes' AND column_name = 'key_expiry_disabled')").mapTo(String.class).list());
        assertEquals(List.of("boolean", "boolean"), types);
        assertTrue(db.isReachable());
        assertTrue(db.checkpoint(), "nothing to checkpoint on PostgreSQL");
        db.close();
    }

    @Test
    void rowsChangedSoFarGrowsWithEveryRowWrittenInTheTransactionAndNotWithReads() {
        Database db = Database.open(PostgresCluster.shared().newDatabase(), QUIET);
        db.jdbi().useHandle(h -> h.execute("CREATE TABLE probe (x INTEGER)"));
        db.jdbi().useTransaction(h -> {
            long start = Dialect.POSTGRES.rowsChangedSoFar(h);
            h.createQuery("SELECT COUNT(*) FROM probe").mapTo(Integer.class).one();
            assertEquals(start, Dialect.POSTGRES.rowsChangedSoFar(h), "a read writes nothing");
            h.execute("INSERT INTO probe VALUES (1), (2)");
            assertEquals(start + 2, Dialect.POSTGRES.rowsChangedSoFar(h));
            h.execute("UPDATE probe SET x = 3 WHERE x = 1");
            assertEquals(start + 3, Dialect.POSTGRES.rowsChangedSoFar(h));
            h.execute("DELETE FROM probe");
            assertEquals(start + 5, Dialect.POSTGRES.rowsChangedSoFar(h));
        });
        db.close();
    }

    @Test
    void aKeptConnectionTheServerEndedIsReplacedBeforeItIsLent() throws Exception {
        PostgresSettings settings = PostgresCluster.shared().newDatabase();
        Database db = Database.open(settings, QUIET, Duration.ZERO);
        int backend = db.jdbi().withHandle(h -> h.createQuery("SELECT pg_backend_pid()").mapTo(Integer.class).one());
        assertEquals(1, db.idleConnections());
        // As a restarted server or a dropped idle link would: the kept connection's session ends.
        try (var admin = PostgresCluster.shared().connect(settings.name());
                var end = admin.prepareStatement("SELECT pg_terminate_backend(?)")) {
            end.setInt(1, backend);
            end.execute();
            var gone = admin.prepareStatement("SELECT COUNT(*) FROM pg_stat_activity WHERE pid = ?");
            gone.setInt(1, backend);
            Await.until("the session ended", () -> {
                try (var rows = gone.executeQuery()) {
                    return rows.next() && rows.getInt(1) == 0;
                } catch (java.sql.SQLException e) {
                    throw new IllegalStateException(e);
                }
            });
        }
        int next = db.jdbi().withHandle(h -> h.createQuery("SELECT pg_backend_pid()").mapTo(Integer.class).one());
        assertTrue(next != backend, "a new session answered");
        assertEquals(1, db.idleConnections(), "the dead connection was closed, not kept");
        db.close();
    }

    @Test
    void theTailnetIdIsMadeOnceAndSurvivesReopening() {
        PostgresSettings settings = PostgresCluster.shared().newDatabase();
        String first = new TailnetStore(Database.open(settings, QUIET).jdbi()).ensureTailnetId(Instant.now());
        String second = new TailnetStore(Database.open(settings, QUIET).jdbi()).ensureTailnetId(Instant.now());
        assertEquals(first, second);
    }

    @Test
    void aServerThatDoesNotAnswerIsOneMessageNamingWhereItWasLookedFor() {
        PostgresSettings nowhere = new PostgresSettings("127.0.0.1", 1, "svc", "svc", "",
                PostgresSettings.TlsMode.DISABLE, 1);
        DatabaseUnreachable refused = assertThrows(DatabaseUnreachable.class,
                () -> Database.open(nowhere, QUIET));
        assertTrue(refused.getMessage().startsWith("cannot connect to PostgreSQL at svc@127.0.0.1:1/svc: "),
                refused.getMessage());
    }
}
