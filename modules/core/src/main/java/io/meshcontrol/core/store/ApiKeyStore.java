package io.meshcontrol.core.store;

import io.meshcontrol.core.model.ApiKey;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.statement.StatementContext;

/** API keys table: only the hash of each secret is stored. */
public final class ApiKeyStore {

    private static final String COLUMNS =
            "id, prefix, secret_hash, owner_user_id, creator_user_id, scopes, description, created_at, expires_at, "
                    + "revoked_at, last_used_at";

    public void insert(Handle handle, ApiKey key) {
        handle.createUpdate("INSERT INTO api_keys (" + COLUMNS + ") VALUES (:id, :prefix, :secretHash, :owner, :creator, :scopes, "
                        + ":description, :createdAt, :expiresAt, :revokedAt, :lastUsedAt)")
                .bind("id", key.id())
                .bind("prefix", key.prefix())
                .bind("secretHash", key.secretHash())
                .bind("owner", key.ownerUserId())
                .bind("creator", key.creatorUserId())
                .bind("scopes", TextLists.join(key.scopes()))
                .bind("description", key.description())
                .bind("createdAt", key.createdAt().toEpochMilli())
                .bind("expiresAt", key.expiresAt().toEpochMilli())
                .bind("revokedAt", Times.toMillis(key.revokedAt()))
                .bind("lastUsedAt", Times.toMillis(key.lastUsedAt()))
                .execute();
    }

    /** Replaces prefix and secret in one statement, so the old secret stops working with the commit. */
    public void rotate(Handle handle, String id, String newPrefix, String newSecretHash, Instant expiresAt) {
        handle.createUpdate("UPDATE api_keys SET prefix = :prefix, secret_hash = :hash, expires_at = :expiresAt WHERE id = :id")
                .bind("id", id)
                .bind("prefix", newPrefix)
                .bind("hash", newSecretHash)
                .bind("expiresAt", expiresAt.toEpochMilli())
                .execute();
    }

    public void revoke(Handle handle, String id, Instant at) {
        handle.createUpdate("UPDATE api_keys SET revoked_at = :at WHERE id = :id AND revoked_at IS NULL")
                .bind("id", id)
                .bind("at", at.toEpochMilli())
                .execute();
    }

    public void markUsed(Handle handle, String id, Instant at) {
        handle.createUpdate("UPDATE api_keys SET last_used_at = :at WHERE id = :id").bind("id", id)
                .bind("at", at.toEpochMilli()).execute();
    }

    public Optional<ApiKey> byPrefix(Handle handle, String prefix) {
        return Lookups.one(
                handle.createQuery("SELECT " + COLUMNS + " FROM api_keys WHERE prefix = :prefix").bind("prefix", prefix)
                .map(ApiKeyStore::map));
    }

    public List<ApiKey> all(Handle handle) {
        return handle.createQuery("SELECT " + COLUMNS + " FROM api_keys ORDER BY created_at, id").map(ApiKeyStore::map).list();
    }

    private static Long userId(ResultSet rs, String column) throws SQLException {
        long id = rs.getLong(column);
        return rs.wasNull() ? null : id;
    }

    private static ApiKey map(ResultSet rs, StatementContext ctx) throws SQLException {
        List<String> scopeList = TextLists.split(rs.getString("scopes"));
        return new ApiKey(rs.getString("id"), rs.getString("prefix"), rs.getString("secret_hash"),
                userId(rs, "owner_user_id"), userId(rs, "creator_user_id"), scopeList,
                rs.getString("description"), Times.instant(rs, "created_at"), Times.instant(rs, "expires_at"),
                Times.instant(rs, "revoked_at"), Times.instant(rs, "last_used_at"));
    }
}
