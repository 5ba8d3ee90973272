package io.meshcontrol.core.store;

import io.meshcontrol.core.model.PostureAttribute;
import io.meshcontrol.core.model.PostureIntegration;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.jdbi.v3.core.Handle;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** Device posture: the integrations with outside providers, and the custom attributes of nodes. */
public final class PostureStore {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final String INTEGRATION_COLUMNS =
            "id, provider, cloud_id, client_id, tenant_id, client_secret, updated_at";

    public List<PostureIntegration> integrations(Handle handle) {
        return handle.createQuery("SELECT " + INTEGRATION_COLUMNS + " FROM posture_integrations ORDER BY provider")
                .map((rs, ctx) -> integration(rs)).list();
    }

    public Optional<PostureIntegration> integration(Handle handle, String id) {
        return Lookups.one(
                handle.createQuery("SELECT " + INTEGRATION_COLUMNS + " FROM posture_integrations WHERE id = :id")
                .bind("id", id).map((rs, ctx) -> integration(rs)));
    }

    public boolean hasProvider(Handle handle, String provider) {
        return handle.createQuery("SELECT COUNT(*) FROM posture_integrations WHERE provider = :provider")
                .bind("provider", provider).mapTo(Integer.class).one() > 0;
    }

    public void putIntegration(Handle handle, PostureIntegration i) {
        handle.createUpdate("INSERT INTO posture_integrations (" + INTEGRATION_COLUMNS + ") VALUES (:id, :provider, "
                        + ":cloud, :client, :tenant, :secret, :at) ON CONFLICT (id) DO UPDATE SET cloud_id = :cloud, "
                        + "client_id = :client, tenant_id = :tenant, client_secret = :secret, updated_at = :at")
                .bind("id", i.id())
                .bind("provider", i.provider())
                .bind("cloud", i.cloudId())
                .bind("client", i.clientId())
                .bind("tenant", i.tenantId())
                .bind("secret", i.clientSecret())
                .bind("at", i.updated().toEpochMilli())
                .execute();
    }

    public boolean deleteIntegration(Handle handle, String id) {
        return handle.createUpdate("DELETE FROM posture_integrations WHERE id = :id").bind("id", id).execute() > 0;
    }

    private static PostureIntegration integration(ResultSet rs) throws SQLException {
        return new PostureIntegration(rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4),
                rs.getString(5), rs.getString(6), Times.instant(rs, "updated_at"));
    }

    public List<PostureAttribute> attributes(Handle handle, long nodeId) {
        return handle.createQuery("SELECT name, value, expires_at, comment FROM node_posture_attributes "
                        + "WHERE node_id = :node ORDER BY name")
                .bind("node", nodeId)
                .map((rs, ctx) -> new PostureAttribute(rs.getString(1), value(rs.getString(2)),
                        Times.instant(rs, "expires_at"), rs.getString(4)))
                .list();
    }

    public void putAttribute(Handle handle, long nodeId, PostureAttribute attribute) {
        handle.createUpdate("INSERT INTO node_posture_attributes (node_id, name, value, expires_at, comment) "
                        + "VALUES (:node, :name, :value, :expires, :comment) ON CONFLICT (node_id, name) DO UPDATE SET "
                        + "value = :value, expires_at = :expires, comment = :comment")
                .bind("node", nodeId)
                .bind("name", attribute.name())
                .bind("value", JSON.writeValueAsString(attribute.value()))
                .bind("expires", Times.toMillis(attribute.expiry()))
                .bind("comment", attribute.comment())
                .execute();
    }

    public boolean deleteAttribute(Handle handle, long nodeId, String name) {
        return handle.createUpdate("DELETE FROM node_posture_attributes WHERE node_id = :node AND name = :name")
                .bind("node", nodeId).bind("name", name).execute() > 0;
    }

    private static Object value(String json) {
        JsonNode node = JSON.readTree(json);
        if (node.isBoolean()) {
            return node.asBoolean();
        }
        if (node.isIntegralNumber()) {
            return node.asLong();
        }
        if (node.isNumber()) {
            return node.asDouble();
        }
        return node.asString();
    }
}
