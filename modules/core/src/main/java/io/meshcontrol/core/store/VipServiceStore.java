package io.meshcontrol.core.store;

import io.meshcontrol.core.model.VipService;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jdbi.v3.core.Handle;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/** Services: name and addresses as columns (unique), the rest as one JSON document. */
public final class VipServiceStore {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    public List<VipService> all(Handle handle) {
        return handle.createQuery("SELECT name, ipv4, ipv6, document FROM vip_services ORDER BY name")
                .map((rs, ctx) -> decode(rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4))).list();
    }

    public Optional<VipService> byName(Handle handle, String name) {
        return Lookups.one(handle.createQuery("SELECT name, ipv4, ipv6, document FROM vip_services WHERE name = :name")
                .bind("name", name)
                .map((rs, ctx) -> decode(rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4)))
                );
    }

    public void put(Handle handle, VipService service, Instant at) {
        handle.createUpdate("INSERT INTO vip_services (name, ipv4, ipv6, document, updated_at) "
                        + "VALUES (:name, :ipv4, :ipv6, :document, :at) ON CONFLICT (name) DO UPDATE SET "
                        + "ipv4 = :ipv4, document = :document, updated_at = :at")
                .bind("name", service.name())
                .bind("ipv4", service.ipv4())
                .bind("ipv6", service.ipv6())
                .bind("document", document(service))
                .bind("at", at.toEpochMilli())
                .execute();
    }

    /** Whether a node or a service holds this IPv4 address (both columns are unique, so indexed). */
    public static boolean ipv4Taken(Handle handle, String ipv4) {
        return handle.createQuery("SELECT EXISTS (SELECT 1 FROM nodes WHERE ipv4 = :ipv4)"
                        + " OR EXISTS (SELECT 1 FROM vip_services WHERE ipv4 = :ipv4)")
                .bind("ipv4", ipv4).mapTo(Boolean.class).one();
    }

    public boolean delete(Handle handle, String name) {
        return handle.createUpdate("DELETE FROM vip_services WHERE name = :name").bind("name", name).execute() > 0;
    }

    private static String document(VipService s) {
        ObjectNode doc = JSON.createObjectNode();
        doc.put("comment", s.comment());
        ObjectNode annotations = doc.putObject("annotations");
        s.annotations().forEach(annotations::put);
        s.ports().forEach(doc.putArray("ports")::add);
        s.tags().forEach(doc.putArray("tags")::add);
        return JSON.writeValueAsString(doc);
    }

    private static VipService decode(String name, String ipv4, String ipv6, String text) {
        JsonNode d = JSON.readTree(text);
        Map<String, String> annotations = new LinkedHashMap<>();
        d.path("annotations").properties().forEach(e -> annotations.put(e.getKey(), e.getValue().asString()));
        return new VipService(name, ipv4, ipv6, d.path("comment").asString(""), annotations, texts(d.path("ports")),
                texts(d.path("tags")));
    }

    private static List<String> texts(JsonNode array) {
        List<String> texts = new ArrayList<>();
        array.forEach(t -> texts.add(t.asString()));
        return texts;
    }
}
