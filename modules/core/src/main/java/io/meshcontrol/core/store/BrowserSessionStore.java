package io.meshcontrol.core.store;

import java.time.Instant;
import java.util.Optional;
import org.jdbi.v3.core.Handle;

/** Browser sessions: the hash of each cookie's secret, its user and its lifetime. */
public final class BrowserSessionStore {

    /** A stored session. */
    public record Row(String secretHash, long userId, Instant createdAt, Instant expiresAt) {
    }

    public void insert(Handle handle, Row row) {
        CommitListener.requireTransaction(handle);
        handle.createUpdate("INSERT INTO browser_sessions (secret_hash, user_id, created_at, expires_at) "
                        + "VALUES (:hash, :userId, :createdAt, :expiresAt)")
                .bind("hash", row.secretHash())
                .bind("userId", row.userId())
                .bind("createdAt", row.createdAt().toEpochMilli())
                .bind("expiresAt", row.expiresAt().toEpochMilli())
                .execute();
    }

    public Optional<Row> byHash(Handle handle, String secretHash) {
        return Lookups.one(
                handle.createQuery("SELECT secret_hash, user_id, created_at, expires_at FROM browser_sessions "
                        + "WHERE secret_hash = :hash")
                .bind("hash", secretHash)
                .map((rs, ctx) -> new Row(rs.getString("secret_hash"), rs.getLong("user_id"),
                        Times.instant(rs, "created_at"), Times.instant(rs, "expires_at")))
                );
    }

    public boolean delete(Handle handle, String secretHash) {
        return handle.createUpdate("DELETE FROM browser_sessions WHERE secret_hash = :hash")
                .bind("hash", secretHash).execute() == 1;
    }

    /** Removes every session that has expired by {@code now}. */
    public int deleteExpired(Handle handle, Instant now) {
        return handle.createUpdate("DELETE FROM browser_sessions WHERE expires_at <= :now")
                .bind("now", now.toEpochMilli()).execute();
    }
}
