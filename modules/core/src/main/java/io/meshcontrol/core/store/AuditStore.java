package io.meshcontrol.core.store;

import io.meshcontrol.core.model.AuditEntry;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
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

    public AuditEntry append(Handle handle, Instant at, String actor, String action, String target,
            Map<String, String> details) {
        long id = IdSequences.next(handle, "audit_log");
        handle.createUpdate("INSERT INTO audit_log (id, at, actor, action, target, details) "
                        + "VALUES (:id, :at, :actor, :action, :target, :details)")
                .bind("id", id)
                .bind("at", at.toEpochMilli())
                .bind("actor", actor)
                .bind("action", action)
                .bind("target", target)
                .bind("details", JSON.writeValueAsString(details))
                .execute();
        return new AuditEntry(id, at, actor, action, target, details);
    }

    /** Newest first. */
    public List<AuditEntry> recent(Handle handle, String action, int limit) {
        return handle.createQuery("SELECT id, at, actor, action, target, details FROM audit_log "
                        + "WHERE (:action IS NULL OR action = :action) ORDER BY id DESC LIMIT :limit")
                .bind("action", action)
                .bind("limit", limit)
                .map(AuditStore::map)
                .list();
    }

    private static AuditEntry map(ResultSet rs, StatementContext ctx) throws SQLException {
        return new AuditEntry(rs.getLong("id"), Times.instant(rs, "at"), rs.getString("actor"), rs.getString("action"),
                rs.getString("target"), JSON.readValue(rs.getString("details"), DETAILS));
    }
}
