package io.meshcontrol.core.store;

import io.meshcontrol.core.model.DnsSettings;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jdbi.v3.core.Handle;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * DNS saved at runtime, one JSON document read and written whole. No row: the configuration's values are in force.
 * MagicDNS is not kept (the configuration decides it), so the row is read with the configured value.
 */
public final class DnsSettingsStore {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    public Optional<DnsSettings> read(Handle handle, boolean magicDns) {
        return Lookups.one(
                handle.createQuery("SELECT document FROM dns_settings WHERE singleton = 1").mapTo(String.class)
                ).map(text -> decode(text, magicDns));
    }

    public void write(Handle handle, DnsSettings settings, Instant at, String actor) {
        handle.createUpdate("INSERT INTO dns_settings (singleton, document, updated_at, updated_by) "
                        + "VALUES (1, :document, :at, :actor) ON CONFLICT (singleton) DO UPDATE SET "
                        + "document = :document, updated_at = :at, updated_by = :actor")
                .bind("document", document(settings))
                .bind("at", at.toEpochMilli())
                .bind("actor", actor)
                .execute();
    }

    /** Written by hand as a tree: the names are the store's own, and no reflection into this module is needed. */
    static String document(DnsSettings s) {
        ObjectNode doc = JSON.createObjectNode();
        doc.put("overrideLocalDns", s.overrideLocalDns());
        resolvers(doc.putArray("nameservers"), s.nameservers());
        ObjectNode split = doc.putObject("splitDns");
        s.splitDns().forEach((domain, resolvers) -> resolvers(split.putArray(domain), resolvers));
        ArrayNode paths = doc.putArray("searchPaths");
        s.searchPaths().forEach(paths::add);
        return JSON.writeValueAsString(doc);
    }

    private static void resolvers(ArrayNode array, List<DnsSettings.Resolver> resolvers) {
        resolvers.forEach(r -> array.addObject().put("address", r.address()).put("useWithExitNode", r.useWithExitNode()));
    }

    static DnsSettings decode(String text, boolean magicDns) {
        JsonNode d = JSON.readTree(text);
        Map<String, List<DnsSettings.Resolver>> split = new LinkedHashMap<>();
        d.path("splitDns").properties().forEach(e -> split.put(e.getKey(), resolvers(e.getValue())));
        List<String> paths = new ArrayList<>();
        d.path("searchPaths").forEach(p -> paths.add(p.asString()));
        return new DnsSettings(magicDns, d.path("overrideLocalDns").asBoolean(), resolvers(d.path("nameservers")), split,
                paths);
    }

    private static List<DnsSettings.Resolver> resolvers(JsonNode array) {
        List<DnsSettings.Resolver> resolvers = new ArrayList<>();
        array.forEach(r -> resolvers.add(new DnsSettings.Resolver(r.path("address").asString(),
                r.path("useWithExitNode").asBoolean())));
        return resolvers;
    }
}
