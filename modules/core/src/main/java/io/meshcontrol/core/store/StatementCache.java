package io.meshcontrol.core.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The prepared statements of one pooled SQLite connection, kept for the next use of the same SQL. SQLite compiles a
 * statement anew on every prepare (parsing, name resolution, the query plan): tens of microseconds each, and a
 * registration runs dozens of statements; a kept statement is reset and bound again instead.
 *
 * <p>A statement is lent to one user at a time: one taken and not given back yet is not in the cache, so nested use of
 * the same SQL (a query inside the loop over another's rows) prepares a second one. Up to {@link #CAPACITY} are kept,
 * the least recently used closed first. Synchronized because a statement may be given back after its handle returned
 * the connection to the pool (Jdbi closes statements first, but a caller's leftover iterator need not).
 */
final class StatementCache {

    /** Distinct statements kept per connection: more than the stores' hot paths use, bounded for SQL built at run time. */
    static final int CAPACITY = 128;

    private final Map<String, PreparedStatement> idle = new LinkedHashMap<>(CAPACITY * 2, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, PreparedStatement> eldest) {
            if (size() <= CAPACITY) {
                return false;
            }
            closeQuietly(eldest.getValue());
            return true;
        }
    };
    /** The statements lent, with the SQL each was prepared from. */
    private final Map<PreparedStatement, String> lent = new IdentityHashMap<>();
    private boolean closed;

    /** A statement for {@code sql} on {@code connection}: a kept one, or one prepared now. */
    synchronized PreparedStatement take(Connection connection, String sql) throws SQLException {
        PreparedStatement statement = idle.remove(sql);
        if (statement == null || statement.isClosed()) {
            statement = connection.prepareStatement(sql);
        }
        lent.put(statement, sql);
        return statement;
    }

    /**
     * Takes back a statement of {@link #take}: its result, if still open, is closed (which resets it, ending its
     * read of the database, so a checkpoint does not wait on it) and its parameters cleared.
     *
     * @return false when the statement was not lent here (the caller closes it)
     */
    synchronized boolean giveBack(PreparedStatement statement) {
        String sql = lent.remove(statement);
        if (sql == null) {
            return false;
        }
        try {
            statement.getMoreResults();
            statement.clearParameters();
        } catch (SQLException e) {
            closeQuietly(statement);
            return true;
        }
        PreparedStatement other = closed ? statement : idle.putIfAbsent(sql, statement);
        if (other != null) {
            // Nested use prepared a second one, or the cache is closed: one kept copy is enough.
            closeQuietly(statement);
        }
        return true;
    }

    /** Statements kept and not lent: for tests. */
    synchronized int kept() {
        return idle.size();
    }

    /** Closes the kept statements (before their connection closes) and keeps no more. */
    synchronized void close() {
        closed = true;
        idle.values().forEach(StatementCache::closeQuietly);
        idle.clear();
    }

    private static void closeQuietly(PreparedStatement statement) {
        try {
            statement.close();
        } catch (SQLException e) {
            // A statement fails to close only with its connection gone, which frees it anyway.
        }
    }
}
