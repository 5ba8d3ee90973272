package io.meshcontrol.core.store;

import java.lang.System.Logger.Level;
import java.sql.SQLException;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import org.jdbi.v3.core.statement.SqlLogger;
import org.jdbi.v3.core.statement.StatementContext;

/**
 * The SQL log of {@code database.debug} and {@code database.query_log.*}: with {@code statements} every statement at
 * debug level (with its bound values unless {@code parameterized}), and always a warning for statements slower than
 * {@code slowThreshold}, the SQL with placeholders (so no secret reaches the log unasked). With {@code notFound},
 * a lookup that found no row is logged at info level, as its statement's line (the stores report it through
 * {@link Lookups}).
 */
public final class StatementLogger implements SqlLogger {

    private static final System.Logger LOG = System.getLogger("io.meshcontrol.core.store.sql");

    private final boolean statements;
    private final boolean parameterized;
    private final Duration slowThreshold;
    private final boolean notFound;

    /** @param slowThreshold zero turns the slow-statement warning off */
    public StatementLogger(boolean statements, boolean parameterized, Duration slowThreshold, boolean notFound) {
        this.statements = statements;
        this.parameterized = parameterized;
        this.slowThreshold = slowThreshold;
        this.notFound = notFound;
    }

    /** A lookup ran and found no row. */
    void logNotFound(StatementContext context) {
        if (notFound) {
            LOG.log(Level.INFO, "no row found by " + line(context, context.getElapsedTime(ChronoUnit.MILLIS)));
        }
    }

    @Override
    public void logAfterExecution(StatementContext context) {
        long millis = context.getElapsedTime(ChronoUnit.MILLIS);
        if (!slowThreshold.isZero() && millis >= slowThreshold.toMillis()) {
            LOG.log(Level.WARNING, "slow SQL statement (" + millis + " ms): " + sql(context));
        }
        if (statements && LOG.isLoggable(Level.DEBUG)) {
            LOG.log(Level.DEBUG, line(context, millis));
        }
    }

    @Override
    public void logException(StatementContext context, SQLException e) {
        if (statements && LOG.isLoggable(Level.DEBUG)) {
            LOG.log(Level.DEBUG, line(context, context.getElapsedTime(ChronoUnit.MILLIS)) + " failed: " + e.getMessage());
        }
    }

    /** One statement's line: its SQL, then its bound values unless parameterized, then its time. */
    String line(StatementContext context, long millis) {
        return "SQL (" + millis + " ms): " + sql(context) + (parameterized ? "" : " with " + context.getBinding());
    }

    private static String sql(StatementContext context) {
        String rendered = context.getRenderedSql();
        return rendered == null ? "" : rendered.strip().replaceAll("\\s+", " ");
    }
}
