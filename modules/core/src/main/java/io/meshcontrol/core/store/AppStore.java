package io.meshcontrol.core.store;

import io.meshcontrol.core.model.App;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.jdbi.v3.core.Handle;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/** Apps (name as a unique column, the rest as one JSON document) and the routes connectors learned through them. */
public final class AppStore {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final String COLUMNS = "SELECT id, name, document, created_at, updated_at FROM apps ";

    public List<App> all(Handle handle) {
        return handle.createQuery(COLUMNS + "ORDER BY id").map((rs, ctx) -> decode(rs)).list();
    }

    public Optional<App> byId(Handle handle, long id) {
        return Lookups.one(handle.createQuery(COLUMNS + "WHERE id = :id").bind("id", id).map((rs, ctx) -> decode(rs)));
    }

    public boolean nameTaken(Handle handle, String name, long exceptId) {
        return handle.createQuery("SELECT COUNT(*) FROM apps WHERE name = :name AND id <> :id")
                .bind("name", name).bind("id", exceptId).mapTo(Integer.class).one() > 0;
    }

    /** A new app's id, never reused. */
    public long nextId(Handle handle) {
        return IdSequences.next(handle, "apps");
    }

    public void put(Handle handle, App app) {
        handle.createUpdate("INSERT INTO apps (id, name, document, created_at, updated_at) "
                        + "VALUES (:id, :name, :document, :created, :updated) ON CONFLICT (id) DO UPDATE SET "
                        + "name = :name, document = :document, updated_at = :updated")
                .bind("id", app.id())
                .bind("name", app.name())
                .bind("document", document(app))
                .bind("created", app.createdAt().toEpochMilli())
                .bind("updated", app.updatedAt().toEpochMilli())
                .execute();
    }

    public boolean delete(Handle handle, long id) {
        return handle.createUpdate("DELETE FROM apps WHERE id = :id").bind("id", id).execute() > 0;
    }

    /** The routes the node's connector learned and had approved through an app, as prefix texts. */
    public Set<String> learnedRoutes(Handle handle, long nodeId) {
        return new TreeSet<>(handle.createQuery("SELECT prefix FROM app_learned_routes WHERE node_id = :node")
                .bind("node", nodeId).mapTo(String.class).list());
    }

    /** The nodes that hold learned routes. */
    public List<Long> nodesWithLearnedRoutes(Handle handle) {
        return handle.createQuery("SELECT DISTINCT node_id FROM app_learned_routes").mapTo(Long.class).list();
    }

    /** Replaces the node's learned routes. */
    public void setLearnedRoutes(Handle handle, long nodeId, Set<String> prefixes) {
        handle.createUpdate("DELETE FROM app_learned_routes WHERE node_id = :node").bind("node", nodeId).execute();
        for (String prefix : prefixes) {
            handle.createUpdate("INSERT INTO app_learned_routes (node_id, prefix) VALUES (:node, :prefix)")
                    .bind("node", nodeId).bind("prefix", prefix).execute();
        }
    }

    private static String document(App app) {
        ObjectNode doc = JSON.createObjectNode();
        doc.put("description", app.description());
        app.domains().forEach(doc.putArray("domains")::add);
        app.connectors().forEach(doc.putArray("connectors")::add);
        app.routes().forEach(doc.putArray("routes")::add);
        return JSON.writeValueAsString(doc);
    }

    private static App decode(ResultSet rs) throws SQLException {
        JsonNode d = JSON.readTree(rs.getString("document"));
        return new App(rs.getLong("id"), rs.getString("name"), d.path("description").asString(""),
                texts(d.path("domains")), texts(d.path("connectors")), texts(d.path("routes")),
                Times.instant(rs, "created_at"), Times.instant(rs, "updated_at"));
    }

    private static List<String> texts(JsonNode array) {
        List<String> texts = new ArrayList<>();
        array.forEach(t -> texts.add(t.asString()));
        return texts;
    }
}
