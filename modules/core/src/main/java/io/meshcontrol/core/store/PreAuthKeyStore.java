package io.meshcontrol.core.store;

import io.meshcontrol.core.model.PreAuthKey;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.statement.StatementContext;

/** Pre-auth keys table. */
public final class PreAuthKeyStore {

    private static final String COLUMNS = "id, prefix, secret_hash, user_id, tags, reusable, ephemeral, preauthorized, "
            + "description, created_at, expires_at, revoked_at, use_count, last_used_at";

    public long nextId(Handle handle) {
        return IdSequences.next(handle, "pre_auth_keys");
    }

    /** For keys imported with the ids they had elsewhere: later keys get higher ids. */
    public void reserveIdsThrough(Handle handle, long used) {
        IdSequences.reserveThrough(handle, "pre_auth_keys", used);
    }

    public void insert(Handle handle, PreAuthKey key) {
        handle.createUpdate("INSERT INTO pre_auth_keys (" + COLUMNS + ") VALUES (:id, :prefix, :hash, :user, :tags, "
                        + ":reusable, :ephemeral, :preauthorized, :description, :createdAt, :expiresAt, :revokedAt, "
                        + ":useCount, :lastUsedAt)")
                .bind("id", key.id())
                .bind("prefix", key.prefix())
                .bind("hash", key.secretHash())
                .bind("user", key.userId())
                .bind("tags", TextLists.join(key.tags()))
                .bind("reusable", key.reusable())
                .bind("ephemeral", key.ephemeral())
                .bind("preauthorized", key.preauthorized())
                .bind("description", key.description())
                .bind("createdAt", key.createdAt().toEpochMilli())
                .bind("expiresAt", key.expiresAt().toEpochMilli())
                .bind("revokedAt", Times.toMillis(key.revokedAt()))
                .bind("useCount", key.useCount())
                .bind("lastUsedAt", Times.toMillis(key.lastUsedAt()))
                .execute();
    }

    public void revoke(Handle handle, long id, Instant at) {
        handle.createUpdate("UPDATE pre_auth_keys SET revoked_at = :at WHERE id = :id AND revoked_at IS NULL")
                .bind("id", id).bind("at", at.toEpochMilli()).execute();
    }

    public void recordUse(Handle handle, long id, Instant at) {
        handle.createUpdate("UPDATE pre_auth_keys SET use_count = use_count + 1, last_used_at = :at WHERE id = :id")
                .bind("id", id).bind("at", at.toEpochMilli()).execute();
    }

    /** Deletes keys that became invalid before {@code cutoff}; returns how many. */
    public int reapInvalidBefore(Handle handle, Instant cutoff) {
        return handle.createUpdate("DELETE FROM pre_auth_keys WHERE (revoked_at IS NOT NULL AND revoked_at < :cutoff) "
                        + "OR expires_at < :cutoff OR (reusable = FALSE AND use_count > 0 AND last_used_at < :cutoff)")
                .bind("cutoff", cutoff.toEpochMilli()).execute();
    }

    public Optional<PreAuthKey> byId(Handle handle, long id) {
        return Lookups.one(handle.createQuery("SELECT " + COLUMNS + " FROM pre_auth_keys WHERE id = :id").bind("id", id)
                .map(PreAuthKeyStore::map));
    }

    public Optional<PreAuthKey> byPrefix(Handle handle, String prefix) {
        return Lookups.one(
                handle.createQuery("SELECT " + COLUMNS + " FROM pre_auth_keys WHERE prefix = :prefix")
                        .bind("prefix", prefix)
                .map(PreAuthKeyStore::map));
    }

    public List<PreAuthKey> all(Handle handle) {
        return handle.createQuery("SELECT " + COLUMNS + " FROM pre_auth_keys ORDER BY id").map(PreAuthKeyStore::map).list();
    }

    private static PreAuthKey map(ResultSet rs, StatementContext ctx) throws SQLException {
        long user = rs.getLong("user_id");
        Long userId = rs.wasNull() ? null : user;
        return new PreAuthKey(rs.getLong("id"), rs.getString("prefix"), rs.getString("secret_hash"), userId,
                TextLists.split(rs.getString("tags")), rs.getBoolean("reusable"), rs.getBoolean("ephemeral"),
                rs.getBoolean("preauthorized"), rs.getString("description"), Times.instant(rs, "created_at"),
                Times.instant(rs, "expires_at"), Times.instant(rs, "revoked_at"), rs.getInt("use_count"),
                Times.instant(rs, "last_used_at"));
    }
}
