package io.meshcontrol.core.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.PreparedStatement;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.core.statement.StatementContext;
import org.jdbi.v3.core.statement.StatementCustomizer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** SQLite's prepared statements are kept with their pooled connection and reused by the next handle. */
class KeptStatementsTest {

    private static final String BY_X = "SELECT x FROM probe WHERE x >= :x ORDER BY x";

    @TempDir
    Path folder;

    Database database;
    Jdbi jdbi;
    /** Every statement Jdbi executed, in order. */
    final List<PreparedStatement> executed = new ArrayList<>();

    @BeforeEach
    void open() {
        database = Database.open(folder.resolve("db.sqlite"), true);
        jdbi = database.jdbi();
        jdbi.addCustomizer(new StatementCustomizer() {
            @Override
            public void beforeExecution(PreparedStatement statement, StatementContext context) {
                executed.add(statement);
            }
        });
        jdbi.useTransaction(h -> {
            h.execute("CREATE TABLE probe (x INTEGER)");
            IntStream.rangeClosed(1, 5).forEach(x -> h.execute("INSERT INTO probe VALUES (?)", x));
        });
        executed.clear();
    }

    @AfterEach
    void close() {
        database.close();
    }

    private static List<Integer> atLeast(Handle h, int x) {
        return h.createQuery(BY_X).bind("x", x).mapTo(Integer.class).list();
    }

    @Test
    void theSameSqlInTheNextHandleRunsTheStatementPreparedBeforeWithItsNewValues() {
        assertEquals(List.of(4, 5), jdbi.withHandle(h -> atLeast(h, 4)));
        assertEquals(List.of(2, 3, 4, 5), jdbi.withHandle(h -> atLeast(h, 2)));
        assertSame(executed.get(executed.size() - 2), executed.getLast());
        assertTrue(database.statementsKept() > 0);
    }

    @Test
    void theSameSqlInsideTheLoopOverItsOwnRowsGetsASecondStatement() {
        List<List<Integer>> inner = jdbi.withHandle(h -> {
            try (var rows = h.createQuery(BY_X).bind("x", 4).mapTo(Integer.class).stream()) {
                return rows.map(x -> atLeast(h, x)).toList();
            }
        });
        assertEquals(List.of(List.of(4, 5), List.of(5)), inner);
        assertEquals(3, executed.size());
        assertNotSame(executed.getFirst(), executed.get(1), "the outer query's statement was still reading");
        assertSame(executed.get(1), executed.get(2), "the inner one was given back after each row");
    }

    @Test
    void aStatementLeftAfterReadingOneRowOfManyHoldsNoReadSoACheckpointFinishes() throws Exception {
        try (Handle reader = jdbi.open()) {
            // The reader's connection stays lent, with its statements kept and not closed.
            assertEquals(1, reader.createQuery(BY_X).bind("x", 1).mapTo(Integer.class).first());
            reader.execute("UPDATE probe SET x = x WHERE x = 1");
            jdbi.useTransaction(h -> IntStream.range(0, 200).forEach(x -> h.execute("INSERT INTO probe VALUES (?)", x)));
            assertTrue(database.checkpoint(), "a kept statement still reads the database: the checkpoint was busy");
            assertEquals(1, reader.createQuery(BY_X).bind("x", 1).mapTo(Integer.class).first());
        }
    }

    @Test
    void aStatementGivenBackWithItsResultStillOpenIsResetSoACheckpointFinishes() throws Exception {
        jdbi.useTransaction(h -> IntStream.range(0, 200).forEach(x -> h.execute("INSERT INTO probe VALUES (?)", x)));
        StatementCache cache = new StatementCache();
        var source = new org.sqlite.SQLiteDataSource();
        source.setUrl("jdbc:sqlite:" + folder.resolve("db.sqlite"));
        try (var reading = source.getConnection(); var checkpointing = source.getConnection()) {
            PreparedStatement statement = cache.take(reading, "SELECT x FROM probe");
            var rows = statement.executeQuery();
            assertTrue(rows.next());
            assertTrue(cache.giveBack(statement));
            try (var result = checkpointing.createStatement().executeQuery("PRAGMA wal_checkpoint(TRUNCATE)")) {
                assertEquals(0, result.getInt(1), "the statement given back still reads: the checkpoint was busy");
            }
            assertSame(statement, cache.take(reading, "SELECT x FROM probe"));
            cache.close();
        }
    }

    @Test
    void statementsBeyondTheCapacityAreClosedTheLeastRecentlyUsedFirst() throws Exception {
        jdbi.useHandle(h -> IntStream.range(0, StatementCache.CAPACITY + 50)
                .forEach(i -> h.createQuery("SELECT " + i).mapTo(Integer.class).one()));
        assertEquals(StatementCache.CAPACITY, database.statementsKept());
        jdbi.useHandle(h -> h.createQuery("SELECT " + (StatementCache.CAPACITY + 49)).mapTo(Integer.class).one());
        assertSame(executed.get(executed.size() - 2), executed.getLast());
        assertTrue(executed.getFirst().isClosed(), "the first SELECT, used least recently, was closed");
    }

    @Test
    void anInsertLeavesNoGeneratedKeysBehindSinceNoStoreReadsThem() throws Exception {
        boolean anyKey;
        try (Handle h = jdbi.open();
                var statement = h.getConnection().prepareStatement("INSERT INTO probe VALUES (7)")) {
            statement.executeUpdate();
            try (var keys = statement.getGeneratedKeys()) {
                anyKey = keys.next();
            }
        }
        assertFalse(anyKey, "the driver looked up the inserted row's id after the insert");
    }

    @Test
    void aWriteAfterATransactionThatFailedStillSucceeds() {
        try {
            jdbi.useTransaction(h -> {
                h.execute("INSERT INTO probe VALUES (?)", 10);
                throw new IllegalStateException("refused");
            });
        } catch (IllegalStateException expected) {
            // rolled back: its statements were given back and the connection goes on
        }
        jdbi.useTransaction(h -> h.execute("INSERT INTO probe VALUES (?)", 11));
        assertEquals(List.of(11), jdbi.withHandle(h -> atLeast(h, 6)));
    }
}
