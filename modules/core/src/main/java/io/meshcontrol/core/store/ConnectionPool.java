package io.meshcontrol.core.store;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.Semaphore;
import javax.sql.DataSource;
import org.jdbi.v3.core.ConnectionFactory;
import org.jdbi.v3.core.statement.DefaultStatementBuilder;
import org.jdbi.v3.core.statement.StatementBuilderFactory;
import org.jdbi.v3.core.statement.StatementContext;

/**
 * At most a given number of connections (SQLite: {@link #SQLITE_SIZE}; PostgreSQL: {@code database.postgres.pool_size}),
 * kept open and handed from one handle to the next. Opening a SQLite connection
 * costs about 0.4 ms (the file, the pragmas, then the schema parsed again at the first statement), twenty times a
 * simple query; and each open connection holds its own page cache, so thousands of threads reaching the database at
 * once opened thousands of them (2 GB of native memory in a 10,000-node reconnect, docs/performance.md). A thread past
 * the limit parks on a fair semaphore until a handle closes: a virtual thread parks without holding its carrier.
 * Nested use on one thread does not take a second connection: Jdbi hands the thread's open handle to nested calls.
 * Each kept connection keeps its prepared statements too, for Jdbi's statements when {@link #keptStatements()} builds
 * them (SQLite; PostgreSQL's driver keeps its own).
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

    /** A connection of the pool and the statements prepared on it. */
    private record Pooled(Connection connection, StatementCache statements) {

        /** Closes the kept statements, then the connection they were prepared on. */
        void close() throws SQLException {
            statements.close();
            connection.close();
        }
    }

    private record Idle(Pooled pooled, long sinceNanos) {
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

    /**
     * Builds Jdbi's plain prepared statements from the statements kept with each connection, and takes them back
     * instead of closing them. Statements of other kinds (generated keys, updatable results) are made and closed as
     * Jdbi's default does.
     */
    StatementBuilderFactory keptStatements() {
        return connection -> new KeptStatements();
    }

    private static final class KeptStatements extends DefaultStatementBuilder {
        @Override
        public PreparedStatement create(Connection connection, String sql, StatementContext context)
                throws SQLException {
            if (context.isReturningGeneratedKeys() || context.isConcurrentUpdatable()
                    || !(loanOf(connection) instanceof Loan loan)) {
                return super.create(connection, sql, context);
            }
            return loan.preparedStatement(sql);
        }

        /** {@code sql} is the statement's text before Jdbi rendered it: the cache knows each statement's own. */
        @Override
        public void close(Connection connection, String sql, Statement statement) throws SQLException {
            if (!(loanOf(connection) instanceof Loan loan && statement instanceof PreparedStatement prepared
                    && loan.giveBack(prepared))) {
                super.close(connection, sql, statement);
            }
        }

        private static Object loanOf(Connection connection) {
            return Proxy.isProxyClass(connection.getClass()) ? Proxy.getInvocationHandler(connection) : null;
        }
    }

    private Pooled take() throws SQLException {
        // Not interruptible, as opening a connection never was: a stream that ends by interruption still stores
        // its node's last-seen time.
        permits.acquireUninterruptibly();
        try {
            for (Idle kept; (kept = idle.pollFirst()) != null; ) {
                if (stillGood(kept)) {
                    return kept.pooled();
                }
                closeQuietly(kept.pooled());
            }
            return new Pooled(source.getConnection(), new StatementCache());
        } catch (SQLException | RuntimeException e) {
            permits.release();
            throw e;
        }
    }

    private void giveBack(Pooled pooled) throws SQLException {
        try {
            Connection connection = pooled.connection();
            // A connection left inside a transaction is not trusted to the next handle.
            if (closed || connection.isClosed() || !connection.getAutoCommit()) {
                pooled.close();
            } else {
                // Most recently used first: its pages are the likeliest to be cached.
                idle.addFirst(new Idle(pooled, System.nanoTime()));
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

    /** Prepared statements kept with the idle connections: for tests. */
    int statementsKept() {
        return idle.stream().mapToInt(kept -> kept.pooled().statements().kept()).sum();
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
        private Pooled pooled;
        private boolean returned;

        PreparedStatement preparedStatement(String sql) throws SQLException {
            Connection connection = connection();
            return pooled.statements().take(connection, sql);
        }

        /** @return false when the statement is not one of {@link #preparedStatement} */
        boolean giveBack(PreparedStatement statement) {
            return pooled != null && pooled.statements().giveBack(statement);
        }

        private Connection connection() throws SQLException {
            if (returned) {
                throw new SQLException("this connection was given back to the pool");
            }
            if (pooled == null) {
                pooled = take();
            }
            return pooled.connection();
        }

        @Override
        public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
            switch (method.getName()) {
                case "equals":
                    return proxy == args[0];
                case "hashCode":
                    return System.identityHashCode(proxy);
                case "toString":
                    return "loan of " + (pooled == null ? "a connection not taken yet" : pooled.connection());
                case "isClosed":
                    return returned || pooled != null && pooled.connection().isClosed();
                case "close":
                    if (!returned) {
                        returned = true;
                        if (pooled != null) {
                            ConnectionPool.this.giveBack(pooled);
                        }
                    }
                    return null;
                case "getAutoCommit":
                    if (pooled == null && !returned) {
                        // Jdbi asks when it makes the handle, inside a lock of its own: answering without taking a
                        // connection keeps that lock from waiting on the pool. A connection is lent in auto-commit
                        // mode (giveBack closes one that is not).
                        return true;
                    }
                    break;
                default:
                    break;
            }
            Connection connection = connection();
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
            return kept.pooled().connection().isValid(VALIDATION_SECONDS);
        } catch (SQLException e) {
            return false;
        }
    }

    private void closeIdle() {
        for (Idle kept; (kept = idle.pollFirst()) != null; ) {
            closeQuietly(kept.pooled());
        }
    }

    private static void closeQuietly(Pooled pooled) {
        try {
            pooled.close();
        } catch (SQLException e) {
            // Closing fails only when the connection is already unusable; nothing is left to release.
        }
    }
}
