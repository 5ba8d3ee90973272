package io.meshcontrol.core.store;

import io.meshcontrol.core.model.OAuthClient;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.statement.StatementContext;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

/** OAuth clients and federated identities; only the hash of a client's secret is stored. */
public final class OAuthClientStore {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final TypeReference<LinkedHashMap<String, String>> RULES = new TypeReference<>() {
    };
    private static final String COLUMNS = "id, kind, secret_hash, scopes, tags, description, issuer, audience, subject, "
            + "custom_claim_rules, creator, created_at, updated_at, revoked_at";

    public void insert(Handle handle, OAuthClient client) {
        handle.createUpdate("INSERT INTO oauth_clients (" + COLUMNS + ") VALUES (:id, :kind, :secretHash, :scopes, :tags, "
                        + ":description, :issuer, :audience, :subject, :rules, :creator, :createdAt, :updatedAt, :revokedAt)")
                .bind("id", client.id())
                .bind("kind", client.kind().wireName())
                .bind("secretHash", client.secretHash())
                .bind("creator", client.creator())
                .bind("createdAt", client.createdAt().toEpochMilli())
                .bind("revokedAt", Times.toMillis(client.revokedAt()))
                .bindMap(changeable(client))
                .execute();
    }

    /** Writes what an update may change: scopes, tags, description, trust conditions. */
    public void update(Handle handle, OAuthClient client) {
        handle.createUpdate("UPDATE oauth_clients SET scopes = :scopes, tags = :tags, description = :description, "
                        + "issuer = :issuer, audience = :audience, subject = :subject, custom_claim_rules = :rules, "
                        + "updated_at = :updatedAt WHERE id = :id")
                .bind("id", client.id())
                .bindMap(changeable(client))
                .execute();
    }

    private static Map<String, Object> changeable(OAuthClient client) {
        OAuthClient.Trust trust = client.trust();
        Map<String, Object> values = new LinkedHashMap<>();
        values.put("scopes", TextLists.join(client.scopes()));
        values.put("tags", TextLists.join(client.tags()));
        values.put("description", client.description());
        values.put("issuer", trust == null ? null : trust.issuer());
        values.put("audience", trust == null ? null : trust.audience());
        values.put("subject", trust == null ? null : trust.subject());
        values.put("rules", trust == null ? null : JSON.writeValueAsString(trust.customClaimRules()));
        values.put("updatedAt", client.updatedAt().toEpochMilli());
        return values;
    }

    public void revoke(Handle handle, String id, Instant at) {
        handle.createUpdate("UPDATE oauth_clients SET revoked_at = :at WHERE id = :id AND revoked_at IS NULL")
                .bind("id", id).bind("at", at.toEpochMilli()).execute();
    }

    public Optional<OAuthClient> byId(Handle handle, String id) {
        return Lookups.one(handle.createQuery("SELECT " + COLUMNS + " FROM oauth_clients WHERE id = :id").bind("id", id)
                .map(OAuthClientStore::map));
    }

    public List<OAuthClient> all(Handle handle) {
        return handle.createQuery("SELECT " + COLUMNS + " FROM oauth_clients ORDER BY created_at, id")
                .map(OAuthClientStore::map).list();
    }

    private static OAuthClient map(ResultSet rs, StatementContext ctx) throws SQLException {
        String issuer = rs.getString("issuer");
        String rules = rs.getString("custom_claim_rules");
        OAuthClient.Trust trust = issuer == null ? null : new OAuthClient.Trust(issuer, rs.getString("audience"),
                rs.getString("subject"), rules == null ? Map.of() : JSON.readValue(rules, RULES));
        return new OAuthClient(rs.getString("id"), OAuthClient.Kind.fromWireName(rs.getString("kind")),
                rs.getString("secret_hash"), TextLists.split(rs.getString("scopes")), TextLists.split(rs.getString("tags")),
                rs.getString("description"), trust, rs.getString("creator"), Times.instant(rs, "created_at"),
                Times.instant(rs, "updated_at"), Times.instant(rs, "revoked_at"));
    }
}
