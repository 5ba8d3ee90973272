package io.meshcontrol.core.store;

import io.meshcontrol.core.model.AuditEntry;
import io.meshcontrol.core.model.AuditFilter;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.statement.StatementContext;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

/** The append-only audit log; details are kept as a JSON object of strings. */
public final class AuditStore {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final TypeReference<Map<String, String>> DETAILS = new TypeReference<>() {
    };
    private static final String COLUMNS = "id, at, actor, source, action, target, details";

    /** Writes {@code entry} (its id is ignored) and returns it with the id it got. */
    public AuditEntry append(Handle handle, AuditEntry entry) {
        long id = IdSequences.next(handle, "audit_log");
        handle.createUpdate("INSERT INTO audit_log (" + COLUMNS + ") "
                        + "VALUES (:id, :at, :actor, :source, :action, :target, :details)")
                .bind("id", id)
                .bind("at", entry.at().toEpochMilli())
                .bind("actor", entry.actor())
                .bind("source", entry.source())
                .bind("action", entry.action())
                .bind("target", entry.target())
                .bind("details", JSON.writeValueAsString(entry.details()))
                .execute();
        return entry.withId(id);
    }

    /** Newest first. */
    public List<AuditEntry> find(Handle handle, AuditFilter filter) {
        String action = filter.action();
        boolean prefix = action != null && action.endsWith(".");
        return handle.createQuery("SELECT " + COLUMNS + " FROM audit_log WHERE "
                        + "(CAST(:actor AS TEXT) IS NULL OR actor = :actor) AND (CAST(:target AS TEXT) IS NULL OR target = :target) "
                        + (prefix ? "AND substr(action, 1, length(:action)) = :action "
                                : "AND (CAST(:action AS TEXT) IS NULL OR action = :action) ")
                        + "AND (CAST(:since AS BIGINT) IS NULL OR at >= :since) AND (CAST(:until AS BIGINT) IS NULL OR at < :until) "
                        + "AND (:before = 0 OR id < :before) ORDER BY id DESC LIMIT :limit")
                .bind("actor", filter.actor())
                .bind("target", filter.target())
                .bind("action", action)
                .bind("since", filter.since() == null ? null : filter.since().toEpochMilli())
                .bind("until", filter.until() == null ? null : filter.until().toEpochMilli())
                .bind("before", filter.before())
                .bind("limit", filter.limit())
                .map(AuditStore::map)
                .list();
    }

    /** Oldest first: the entries after {@code afterId}, at most {@code limit} of them (what a log stream sends next). */
    public List<AuditEntry> after(Handle handle, long afterId, int limit) {
        return handle.createQuery("SELECT " + COLUMNS + " FROM audit_log WHERE id > :after ORDER BY id LIMIT :limit")
                .bind("after", afterId)
                .bind("limit", limit)
                .map(AuditStore::map)
                .list();
    }

    /** The id of the newest entry, or 0 for an empty log. */
    public long lastId(Handle handle) {
        return handle.createQuery("SELECT COALESCE(MAX(id), 0) FROM audit_log").mapTo(Long.class).one();
    }

    private static AuditEntry map(ResultSet rs, StatementContext ctx) throws SQLException {
        return new AuditEntry(rs.getLong("id"), Times.instant(rs, "at"), rs.getString("actor"), rs.getString("source"),
                rs.getString("action"), rs.getString("target"), JSON.readValue(rs.getString("details"), DETAILS));
    }
}
