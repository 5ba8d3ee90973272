package io.meshcontrol.core.store;

import io.meshcontrol.core.GoDuration;
import io.meshcontrol.core.model.DerpSettings;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.jdbi.v3.core.Handle;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The DERP settings saved at runtime, kept as one JSON document (they are read and written whole). No row means the
 * configuration file's values are in force.
 */
public final class DerpSettingsStore {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    public Optional<DerpSettings> read(Handle handle) {
        return Lookups.one(
                handle.createQuery("SELECT document FROM derp_settings WHERE singleton = 1").mapTo(String.class)
                ).map(DerpSettingsStore::decode);
    }

    public void write(Handle handle, DerpSettings settings, Instant at, String actor) {
        handle.createUpdate("INSERT INTO derp_settings (singleton, document, updated_at, updated_by) "
                        + "VALUES (1, :document, :at, :actor) ON CONFLICT (singleton) DO UPDATE SET "
                        + "document = :document, updated_at = :at, updated_by = :actor")
                .bind("document", document(settings))
                .bind("at", at.toEpochMilli())
                .bind("actor", actor)
                .execute();
    }

    /** Forgets the saved settings: the configuration's are in force again. */
    public void delete(Handle handle) {
        handle.createUpdate("DELETE FROM derp_settings WHERE singleton = 1").execute();
    }

    /** Written by hand as a tree: the names are the store's own, and no reflection into this module is needed. */
    public static String document(DerpSettings s) {
        ObjectNode doc = JSON.createObjectNode();
        ArrayNode urls = doc.putArray("urls");
        s.urls().forEach(urls::add);
        doc.put("autoUpdate", s.autoUpdate());
        doc.put("updateFrequency", GoDuration.format(s.updateFrequency()));
        doc.put("relayEnabled", s.relayEnabled());
        doc.put("ipv4", s.ipv4());
        doc.put("ipv6", s.ipv6());
        doc.put("verifyClients", s.verifyClients());
        doc.put("stunEnabled", s.stunEnabled());
        doc.put("stunListenAddr", s.stunListenAddr());
        ArrayNode relays = doc.putArray("relays");
        for (DerpSettings.CustomRelay r : s.relays()) {
            relays.addObject().put("regionId", r.regionId()).put("code", r.code()).put("host", r.host())
                    .put("ipv4", r.ipv4());
        }
        return JSON.writeValueAsString(doc);
    }

    static DerpSettings decode(String text) {
        JsonNode d = JSON.readTree(text);
        List<String> urls = new ArrayList<>();
        d.path("urls").forEach(url -> urls.add(url.asString()));
        List<DerpSettings.CustomRelay> relays = new ArrayList<>();
        d.path("relays").forEach(r -> relays.add(new DerpSettings.CustomRelay(r.path("regionId").asInt(),
                r.path("code").asString(), r.path("host").asString(), text(r.path("ipv4")))));
        return new DerpSettings(urls, d.path("autoUpdate").asBoolean(),
                GoDuration.parse(d.path("updateFrequency").asString("24h")), d.path("relayEnabled").asBoolean(),
                text(d.path("ipv4")), text(d.path("ipv6")), d.path("verifyClients").asBoolean(true),
                d.path("stunEnabled").asBoolean(), d.path("stunListenAddr").asString(), relays);
    }

    private static String text(JsonNode node) {
        return node.isNull() || node.isMissingNode() ? null : node.asString();
    }
}
