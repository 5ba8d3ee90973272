package io.meshcontrol.core.store;

import io.meshcontrol.core.model.AccessRequest;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.statement.StatementContext;

/** Access requests (just-in-time group membership). The column {@code grp}: {@code group} is an SQL keyword. */
public final class AccessRequestStore {

    private static final String COLUMNS = "id, user_id, grp, reason, duration_ms, state, requested_by, created_at, "
            + "decided_by, decided_at, expires_at, ended_at, ended_by";

    /** A request to insert; the store gives it its id and the pending state. */
    public record NewRow(long userId, String group, String reason, Duration duration, String requestedBy,
            Instant createdAt) {
    }

    public AccessRequest insert(Handle handle, NewRow row) {
        CommitListener.requireTransaction(handle);
        AccessRequest request = new AccessRequest(IdSequences.next(handle, "access_requests"), row.userId(),
                row.group(), row.reason(), row.duration(), AccessRequest.State.PENDING, row.requestedBy(),
                row.createdAt(), null, null, null, null, null);
        handle.createUpdate("INSERT INTO access_requests (" + COLUMNS + ") VALUES (:id, :userId, :grp, :reason, "
                + ":durationMs, :state, :requestedBy, :createdAt, :decidedBy, :decidedAt, :expiresAt, :endedAt, "
                + ":endedBy)").bindMap(values(request)).execute();
        return request;
    }

    /** Writes the decision and end columns (the rest never changes). */
    public void update(Handle handle, AccessRequest request) {
        CommitListener.requireTransaction(handle);
        handle.createUpdate("UPDATE access_requests SET state = :state, decided_by = :decidedBy, decided_at = :decidedAt, "
                + "expires_at = :expiresAt, ended_at = :endedAt, ended_by = :endedBy WHERE id = :id")
                .bindMap(values(request)).execute();
    }

    public Optional<AccessRequest> byId(Handle handle, long id) {
        return Lookups.one(
                handle.createQuery("SELECT " + COLUMNS + " FROM access_requests WHERE id = :id").bind("id", id)
                .map(AccessRequestStore::map));
    }

    /** Newest first; {@code userId} null for everyone's. */
    public List<AccessRequest> list(Handle handle, Long userId) {
        return handle.createQuery("SELECT " + COLUMNS + " FROM access_requests"
                        + " WHERE (CAST(:user AS BIGINT) IS NULL OR user_id = :user) ORDER BY id DESC")
                .bind("user", userId).map(AccessRequestStore::map).list();
    }

    /** Requests in {@code state}, oldest first. */
    public List<AccessRequest> inState(Handle handle, AccessRequest.State state) {
        return handle.createQuery("SELECT " + COLUMNS + " FROM access_requests WHERE state = :state ORDER BY id")
                .bind("state", state.wireName()).map(AccessRequestStore::map).list();
    }

    private static Map<String, Object> values(AccessRequest request) {
        Map<String, Object> values = new HashMap<>();
        values.put("id", request.id());
        values.put("userId", request.userId());
        values.put("grp", request.group());
        values.put("reason", request.reason());
        values.put("durationMs", request.duration().toMillis());
        values.put("state", request.state().wireName());
        values.put("requestedBy", request.requestedBy());
        values.put("createdAt", request.createdAt().toEpochMilli());
        values.put("decidedBy", request.decidedBy());
        values.put("decidedAt", Times.toMillis(request.decidedAt()));
        values.put("expiresAt", Times.toMillis(request.expiresAt()));
        values.put("endedAt", Times.toMillis(request.endedAt()));
        values.put("endedBy", request.endedBy());
        return values;
    }

    private static AccessRequest map(ResultSet rs, StatementContext ctx) throws SQLException {
        return new AccessRequest(rs.getLong("id"), rs.getLong("user_id"), rs.getString("grp"), rs.getString("reason"),
                Duration.ofMillis(rs.getLong("duration_ms")),
                AccessRequest.State.valueOf(rs.getString("state").toUpperCase(java.util.Locale.ROOT)),
                rs.getString("requested_by"), Times.instant(rs, "created_at"), rs.getString("decided_by"),
                Times.instant(rs, "decided_at"), Times.instant(rs, "expires_at"), Times.instant(rs, "ended_at"),
                rs.getString("ended_by"));
    }
}
