package io.meshcontrol.core.store;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.Semaphore;
import javax.sql.DataSource;
import org.jdbi.v3.core.ConnectionFactory;

/**
 * At most a given number of connections (SQLite: {@link #SQLITE_SIZE}; PostgreSQL: {@code database.postgres.pool_size}),
 * kept open and handed from one handle to the next. Opening a SQLite connection
 * costs about 0.4 ms (the file, the pragmas, then the schema parsed again at the first statement), twenty times a
 * simple query; and each open connection holds its own page cache, so thousands of threads reaching the database at
 * once opened thousands of them (2 GB of native memory in a 10,000-node reconnect, docs/performance.md). A thread past
 * the limit parks on a fair semaphore until a handle closes: a virtual thread parks without holding its carrier.
 * Nested use on one thread does not take a second connection: Jdbi hands the thread's open handle to nested calls.
 */
final class ConnectionPool implements ConnectionFactory, AutoCloseable {

    /** Enough for reads beside a writer: SQLite calls run in native code, which holds a carrier thread anyway. */
    static final int SQLITE_SIZE = 8;
    private static final int VALIDATION_SECONDS = 5;

    private final DataSource source;
    private final Semaphore permits;
    /** Null: kept connections are trusted (SQLite's are files); else how long one may idle before it is checked. */
    private final Duration checkAfterIdle;
    private final ConcurrentLinkedDeque<Idle> idle = new ConcurrentLinkedDeque<>();
    private volatile boolean closed;

    ConnectionPool(DataSource source, int size) {
        this(source, size, null);
    }

    /**
     * @param checkAfterIdle a connection kept this long or longer is checked before it is lent (PostgreSQL: the
     *     server may have restarted, or a firewall dropped the idle link), and replaced when it no longer answers
     */
    ConnectionPool(DataSource source, int size, Duration checkAfterIdle) {
        this.source = source;
        this.permits = new Semaphore(size, true);
        this.checkAfterIdle = checkAfterIdle;
    }

    private record Idle(Connection connection, long sinceNanos) {
    }

    /**
     * A loan of a connection of the pool, until the handle closes it. The connection itself is taken at the loan's
     * first use: a transaction's first use comes after it has the writer lock ({@link SerializedTransactions}), so
     * writers queued for that lock hold no connection, and reads do not queue behind them.
     */
    @Override
    public Connection openConnection() {
        return (Connection) Proxy.newProxyInstance(Connection.class.getClassLoader(), new Class<?>[] {Connection.class},
                new Loan());
    }

    private Connection take() throws SQLException {
        // Not interruptible, as opening a connection never was: a stream that ends by interruption still stores
        // its node's last-seen time.
        permits.acquireUninterruptibly();
        try {
            for (Idle kept; (kept = idle.pollFirst()) != null; ) {
                if (stillGood(kept)) {
                    return kept.connection();
                }
                closeQuietly(kept.connection());
            }
            return source.getConnection();
        } catch (SQLException | RuntimeException e) {
            permits.release();
            throw e;
        }
    }

    private void giveBack(Connection connection) throws SQLException {
        try {
            // A connection left inside a transaction is not trusted to the next handle.
            if (closed || connection.isClosed() || !connection.getAutoCommit()) {
                connection.close();
            } else {
                // Most recently used first: its pages are the likeliest to be cached.
                idle.addFirst(new Idle(connection, System.nanoTime()));
                if (closed) {
                    closeIdle();
                }
            }
        } finally {
            permits.release();
        }
    }

    /** Connections open and waiting for the next handle: for tests. */
    int idleConnections() {
        return idle.size();
    }

    /**
     * Closes the idle connections and keeps no more: those in use are closed when their handle closes. A late
     * writer (a stream ending while the server stops) still gets a connection of its own, as before pooling.
     */
    @Override
    public void close() {
        closed = true;
        closeIdle();
    }

    /**
     * One loan of a connection, seen by Jdbi as a connection of its own. Used by one handle, so by one thread at a
     * time. Jdbi keeps each handle's transaction state
     * in a map whose keys are equal when their connections are, so two handles lent the same connection one after
     * the other would share (and, once the first is collected, lose) that state: each loan is a distinct object.
     */
    private final class Loan implements InvocationHandler {

        /** Taken at the first use; null until then. */
        private Connection connection;
        private boolean returned;

        @Override
        public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
            switch (method.getName()) {
                case "equals":
                    return proxy == args[0];
                case "hashCode":
                    return System.identityHashCode(proxy);
                case "toString":
                    return "loan of " + (connection == null ? "a connection not taken yet" : connection);
                case "isClosed":
                    return returned || connection != null && connection.isClosed();
                case "close":
                    if (!returned) {
                        returned = true;
                        if (connection != null) {
                            giveBack(connection);
                        }
                    }
                    return null;
                case "getAutoCommit":
                    if (connection == null && !returned) {
                        // Jdbi asks when it makes the handle, inside a lock of its own: answering without taking a
                        // connection keeps that lock from waiting on the pool. A connection is lent in auto-commit
                        // mode (giveBack closes one that is not).
                        return true;
                    }
                    break;
                default:
                    break;
            }
            if (returned) {
                throw new SQLException("this connection was given back to the pool");
            }
            if (connection == null) {
                connection = take();
            }
            try {
                return method.invoke(connection, args);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
        }
    }

    private boolean stillGood(Idle kept) {
        if (checkAfterIdle == null || System.nanoTime() - kept.sinceNanos() < checkAfterIdle.toNanos()) {
            return true;
        }
        try {
            return kept.connection().isValid(VALIDATION_SECONDS);
        } catch (SQLException e) {
            return false;
        }
    }

    private void closeIdle() {
        for (Idle kept; (kept = idle.pollFirst()) != null; ) {
            closeQuietly(kept.connection());
        }
    }

    private static void closeQuietly(Connection connection) {
        try {
            connection.close();
        } catch (SQLException e) {
            // Closing fails only when the connection is already unusable; nothing is left to release.
        }
    }
}
