package io.meshcontrol.core.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.core.transaction.TransactionException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sqlite.SQLiteDataSource;

class ConnectionPoolTest {

    @TempDir
    Path folder;

    Database database;
    Jdbi jdbi;

    @BeforeEach
    void open() {
        database = Database.open(folder.resolve("db.sqlite"), true);
        jdbi = database.jdbi();
        jdbi.useTransaction(h -> h.execute("CREATE TABLE probe (x INTEGER)"));
    }

    @AfterEach
    void close() {
        database.close();
    }

    @Test
    void handlesOneAfterAnotherUseTheSameConnection() throws SQLException {
        Connection first = jdbi.withHandle(ConnectionPoolTest::lent);
        for (int i = 0; i < 50; i++) {
            jdbi.useTransaction(h -> h.execute("INSERT INTO probe VALUES (1)"));
            assertSame(first, jdbi.withHandle(ConnectionPoolTest::lent));
        }
        assertEquals(50, rows());
        assertEquals(1, database.idleConnections());
    }

    @Test
    void manyThreadsAtOnceShareAtMostTheSizeOfThePoolAndAllFinish() throws Exception {
        AtomicInteger inUse = new AtomicInteger();
        AtomicInteger most = new AtomicInteger();
        Set<Connection> seen = ConcurrentHashMap.newKeySet();
        List<Future<?>> threads = new ArrayList<>();
        try (var executor = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int i = 0; i < 400; i++) {
                boolean writes = i % 4 == 0;
                threads.add(executor.submit(() -> {
                    if (writes) {
                        jdbi.useTransaction(h -> held(lent(h), inUse, most, seen,
                                () -> h.execute("INSERT INTO probe VALUES (1)")));
                    } else {
                        jdbi.useHandle(h -> held(lent(h), inUse, most, seen,
                                () -> h.createQuery("SELECT count(*) FROM probe").mapTo(Integer.class).one()));
                    }
                    return null;
                }));
            }
            for (Future<?> thread : threads) {
                thread.get();
            }
        }
        assertTrue(most.get() <= ConnectionPool.SQLITE_SIZE, "handles open at once: " + most.get());
        assertTrue(seen.size() <= ConnectionPool.SQLITE_SIZE, "connections opened: " + seen.size());
        assertEquals(100, rows());
    }

    private DataSource dataSource() {
        SQLiteDataSource source = new SQLiteDataSource();
        source.setUrl("jdbc:sqlite:" + folder.resolve("db.sqlite"));
        return source;
    }

    @Test
    void writersWaitingForTheWriterLockHoldNoConnectionSoReadsGoOn() throws Exception {
        CountDownLatch writing = new CountDownLatch(1);
        CountDownLatch finish = new CountDownLatch(1);
        int queued = 2 * ConnectionPool.SQLITE_SIZE;
        try (var executor = Executors.newVirtualThreadPerTaskExecutor()) {
            Future<?> holder = executor.submit(() -> {
                jdbi.useTransaction(h -> {
                    h.execute("INSERT INTO probe VALUES (1)");
                    writing.countDown();
                    finish.await();
                });
                return null;
            });
            writing.await();
            List<Future<?>> writers = new ArrayList<>();
            try {
                for (int i = 0; i < queued; i++) {
                    writers.add(executor.submit(
                            () -> jdbi.useTransaction(h -> h.execute("INSERT INTO probe VALUES (2)"))));
                }
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
                while (database.queuedWriters() < queued && System.nanoTime() < deadline) {
                    Thread.sleep(5);
                }
                assertEquals(queued, database.queuedWriters(), "every writer waits for the lock, none for a connection");
                assertEquals(0, executor.submit(this::rows).get(20, TimeUnit.SECONDS), "a read goes on meanwhile");
            } finally {
                finish.countDown();
            }
            holder.get();
            for (Future<?> writer : writers) {
                writer.get();
            }
        }
        assertEquals(1 + queued, rows());
    }

    /** The pool's connection behind the handle's loan of it. */
    private static Connection lent(Handle handle) throws SQLException {
        return handle.getConnection().unwrap(Connection.class);
    }

    private int rows() {
        return jdbi.withHandle(h -> h.createQuery("SELECT count(*) FROM probe").mapTo(Integer.class).one());
    }

    private static void held(Connection connection, AtomicInteger inUse, AtomicInteger most, Set<Connection> seen,
            Runnable work) throws InterruptedException {
        seen.add(connection);
        most.accumulateAndGet(inUse.incrementAndGet(), Math::max);
        try {
            work.run();
            Thread.sleep(1);
        } finally {
            inUse.decrementAndGet();
        }
    }

    @Test
    void aRolledBackTransactionLeavesItsConnectionReadyForTheNextHandle() {
        assertThrows(IllegalStateException.class, () -> jdbi.useTransaction(h -> {
            h.execute("INSERT INTO probe VALUES (1)");
            throw new IllegalStateException("refused");
        }));
        jdbi.useTransaction(h -> h.execute("INSERT INTO probe VALUES (2)"));
        assertEquals(List.of(2), jdbi.withHandle(h -> h.createQuery("SELECT x FROM probe").mapTo(Integer.class).list()));
        assertEquals(1, database.idleConnections());
    }

    @Test
    void aConnectionGivenBackInsideATransactionIsClosedNotKept() throws Exception {
        ConnectionPool pool = new ConnectionPool(dataSource(), ConnectionPool.SQLITE_SIZE);
        Connection loan = pool.openConnection();
        Connection lent = loan.unwrap(Connection.class);
        loan.setAutoCommit(false);
        loan.close();
        assertTrue(lent.isClosed());
        assertEquals(0, pool.idleConnections());
        assertThrows(SQLException.class, () -> loan.createStatement());
    }

    @Test
    void eachLoanIsItsOwnConnectionToJdbiAndClosingItTwiceGivesItBackOnce() throws Exception {
        ConnectionPool pool = new ConnectionPool(dataSource(), ConnectionPool.SQLITE_SIZE);
        Connection first = pool.openConnection();
        Connection lent = first.unwrap(Connection.class);
        first.close();
        Connection second = pool.openConnection();
        assertSame(lent, second.unwrap(Connection.class));
        assertFalse(first.equals(second));
        first.close();
        assertFalse(second.isClosed());
        second.close();
        assertEquals(1, pool.idleConnections());
        pool.close();
    }

    @Test
    void closingClosesTheKeptConnectionsAndLaterHandlesStillWork() throws Exception {
        Connection kept = jdbi.withHandle(ConnectionPoolTest::lent);
        database.close();
        assertTrue(kept.isClosed());
        jdbi.useTransaction(h -> h.execute("INSERT INTO probe VALUES (3)"));
        assertEquals(0, database.idleConnections());
        assertFalse(jdbi.withHandle(h -> h.createQuery("SELECT x FROM probe").mapTo(Integer.class).list()).isEmpty());
    }
}
