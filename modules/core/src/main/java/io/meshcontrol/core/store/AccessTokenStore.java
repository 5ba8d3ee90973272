package io.meshcontrol.core.store;

import io.meshcontrol.core.model.AccessToken;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Optional;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.statement.StatementContext;

/** OAuth access tokens: the hash of each, what it carries, its expiry. */
public final class AccessTokenStore {

    private static final String COLUMNS = "prefix, secret_hash, client_id, scopes, tags, created_at, expires_at";

    public void insert(Handle handle, AccessToken token) {
        handle.createUpdate("INSERT INTO access_tokens (" + COLUMNS + ") VALUES (:prefix, :hash, :clientId, :scopes, "
                        + ":tags, :createdAt, :expiresAt)")
                .bind("prefix", token.prefix())
                .bind("hash", token.secretHash())
                .bind("clientId", token.clientId())
                .bind("scopes", TextLists.join(token.scopes()))
                .bind("tags", TextLists.join(token.tags()))
                .bind("createdAt", token.createdAt().toEpochMilli())
                .bind("expiresAt", token.expiresAt().toEpochMilli())
                .execute();
    }

    public Optional<AccessToken> byPrefix(Handle handle, String prefix) {
        return Lookups.one(handle.createQuery("SELECT " + COLUMNS + " FROM access_tokens WHERE prefix = :prefix")
                .bind("prefix", prefix).map(AccessTokenStore::map));
    }

    /** Removes tokens that expired before {@code now}; they can never be valid again. */
    public int deleteExpired(Handle handle, Instant now) {
        return handle.createUpdate("DELETE FROM access_tokens WHERE expires_at <= :now").bind("now", now.toEpochMilli())
                .execute();
    }

    /** A revoked client's tokens stop working with it. */
    public int deleteOfClient(Handle handle, String clientId) {
        return handle.createUpdate("DELETE FROM access_tokens WHERE client_id = :clientId").bind("clientId", clientId)
                .execute();
    }

    private static AccessToken map(ResultSet rs, StatementContext ctx) throws SQLException {
        return new AccessToken(rs.getString("prefix"), rs.getString("secret_hash"), rs.getString("client_id"),
                TextLists.split(rs.getString("scopes")), TextLists.split(rs.getString("tags")),
                Times.instant(rs, "created_at"), Times.instant(rs, "expires_at"));
    }
}
