package io.meshcontrol.core.store;

import io.meshcontrol.core.model.LogStream;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.jdbi.v3.core.Handle;
import tools.jackson.databind.json.JsonMapper;

/** Log stream configurations, with each one's delivery cursor and counters. */
public final class LogStreamStore {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    /** Writes the configuration; a new one starts delivering after {@code deliveredTo}, a replaced one keeps its cursor. */
    public void put(Handle handle, LogStream stream, long deliveredTo) {
        Map<String, Object> document = new LinkedHashMap<>();
        document.put("destinationType", stream.destinationType());
        document.put("url", stream.url());
        document.put("user", stream.user());
        document.put("token", stream.token());
        document.put("uploadPeriodMinutes", stream.uploadPeriodMinutes());
        document.put("compressionFormat", stream.compressionFormat());
        handle.createUpdate("INSERT INTO log_streams (log_type, document, delivered_to, updated_at) "
                        + "VALUES (:type, :document, :cursor, :at) ON CONFLICT (log_type) DO UPDATE SET "
                        + "document = :document, updated_at = :at, last_error = ''")
                .bind("type", stream.logType())
                .bind("document", JSON.writeValueAsString(document))
                .bind("cursor", deliveredTo)
                .bind("at", stream.updated().toEpochMilli())
                .execute();
    }

    public Optional<LogStream> get(Handle handle, String logType) {
        return Lookups.one(handle.createQuery("SELECT document, updated_at FROM log_streams WHERE log_type = :type")
                .bind("type", logType)
                .map((rs, ctx) -> {
                    Map<?, ?> d = JSON.readValue(rs.getString("document"), Map.class);
                    return new LogStream(logType, (String) d.get("destinationType"), (String) d.get("url"),
                            (String) d.get("user"), (String) d.get("token"),
                            ((Number) d.get("uploadPeriodMinutes")).intValue(), (String) d.get("compressionFormat"),
                            Times.instant(rs, "updated_at"));
                }));
    }

    public boolean delete(Handle handle, String logType) {
        return handle.createUpdate("DELETE FROM log_streams WHERE log_type = :type").bind("type", logType)
                .execute() > 0;
    }

    public Optional<LogStream.Status> status(Handle handle, String logType) {
        return Lookups.one(
                handle.createQuery("SELECT delivered_to, entries_sent, bytes_sent, requests, failed_requests, "
                        + "last_activity, last_error FROM log_streams WHERE log_type = :type")
                .bind("type", logType)
                .map((rs, ctx) -> new LogStream.Status(rs.getLong(1), rs.getLong(2), rs.getLong(3), rs.getLong(4),
                        rs.getLong(5), Times.instant(rs, "last_activity"), rs.getString(7))));
    }

    /**
     * Moves the cursor past a delivered batch, unless the configuration changed since the batch was read (the
     * entries then go to the new destination).
     */
    public void delivered(Handle handle, String logType, Instant configured, long through, int entries, long bytes,
            Instant at) {
        handle.createUpdate("UPDATE log_streams SET "
                        + "delivered_to = CASE WHEN delivered_to > :through THEN delivered_to ELSE :through END, "
                        + "entries_sent = entries_sent + :entries, bytes_sent = bytes_sent + :bytes, "
                        + "requests = requests + 1, last_activity = :at, last_error = '' "
                        + "WHERE log_type = :type AND updated_at = :configured")
                .bind("through", through)
                .bind("entries", entries)
                .bind("bytes", bytes)
                .bind("at", at.toEpochMilli())
                .bind("type", logType)
                .bind("configured", configured.toEpochMilli())
                .execute();
    }

    public void failed(Handle handle, String logType, String error) {
        handle.createUpdate("UPDATE log_streams SET requests = requests + 1, failed_requests = failed_requests + 1, "
                        + "last_error = :error WHERE log_type = :type")
                .bind("error", error)
                .bind("type", logType)
                .execute();
    }
}
