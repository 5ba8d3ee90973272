package io.meshcontrol.core.store;

import java.util.Optional;
import org.jdbi.v3.core.result.ResultIterable;
import org.jdbi.v3.core.result.ResultIterator;
import org.jdbi.v3.core.statement.SqlStatements;

/**
 * The stores' one way to look up a single row, so that a lookup finding none reaches the SQL log
 * ({@code database.query_log.log_not_found}): Jdbi's logger sees a statement run, never how many rows it gave.
 */
final class Lookups {

    private Lookups() {
    }

    /** The only row of {@code rows}, if any; more than one is a programming error, as Jdbi's findOne says. */
    static <T> Optional<T> one(ResultIterable<T> rows) {
        try (ResultIterator<T> iterator = rows.iterator()) {
            if (!iterator.hasNext()) {
                if (iterator.getContext().getConfig(SqlStatements.class).getSqlLogger() instanceof StatementLogger log) {
                    log.logNotFound(iterator.getContext());
                }
                return Optional.empty();
            }
            T row = iterator.next();
            if (iterator.hasNext()) {
                throw new IllegalStateException("expected at most one row from: "
                        + iterator.getContext().getRenderedSql());
            }
            return Optional.ofNullable(row);
        }
    }
}
