package io.meshcontrol.gui.screen;

import io.meshcontrol.api.ApiJson;
import java.util.ArrayList;
import java.util.List;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * What the server's event stream says changed ({@code GET /api/v1/events}, docs/console.md): machines and users by
 * id, the policy, what maps carry, and the administrative areas (the first word of an audit action: {@code webhook},
 * {@code accessrequest}...). {@link #everything()} when the stream (re)opens: changes may have been missed meanwhile.
 */
public record Change(List<String> nodes, List<String> users, boolean policy, boolean context, List<String> areas,
        boolean all) {

    private static final JsonMapper JSON = ApiJson.mapper(false);

    public static Change everything() {
        return new Change(List.of(), List.of(), true, true, List.of(), true);
    }

    /** A {@code change} event's data. */
    public static Change parse(String data) {
        JsonNode digest = JSON.readTree(data);
        return new Change(texts(digest.path("nodes")), texts(digest.path("users")), digest.path("policy").asBoolean(),
                digest.path("context").asBoolean(), texts(digest.path("areas")), false);
    }

    private static List<String> texts(JsonNode array) {
        List<String> values = new ArrayList<>();
        array.forEach(value -> values.add(value.asString()));
        return List.copyOf(values);
    }

    /** Whether machines changed (joined, went, came online or offline) or what they show did (their user). */
    public boolean machines() {
        return all || !nodes.isEmpty() || !users.isEmpty() || policy;
    }

    /** Whether the area {@code name} (the first word of its audit actions) saw a change. */
    public boolean area(String name) {
        return all || areas.contains(name);
    }
}
