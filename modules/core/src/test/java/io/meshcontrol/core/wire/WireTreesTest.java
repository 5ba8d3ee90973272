package io.meshcontrol.core.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Values kept as JSON text ({@link RawJson}, {@link Hostinfo}) become real objects and arrays in a tree
 * ({@code valueToTree}, which the policy simulation and Hostinfo updates use), not opaque values, and are written raw
 * into JSON text.
 */
class WireTreesTest {

    @Test
    void rawJsonInATreeIsItsObject() {
        JsonNode tree = WireJson.mapper().valueToTree(Map.of("capMap", List.of(RawJson.parse("{\"a\": 1}"))));
        JsonNode argument = tree.get("capMap").get(0);
        assertTrue(argument.isObject(), argument.getNodeType().toString());
        assertEquals(1, argument.get("a").asInt());
        assertEquals("{\"capMap\":[{\"a\":1}]}", WireJson.writeString(Map.of("capMap",
                List.of(RawJson.parse("{\"a\": 1}")))), "and written raw into text");
    }

    @Test
    void aHostinfoInATreeIsItsObject() {
        Hostinfo hostinfo = Hostinfo.parse("{\"OS\":\"linux\",\"Hostname\":\"laptop\",\"NewerField\":[1,2]}");
        JsonNode tree = WireJson.mapper().valueToTree(Map.of("Hostinfo", hostinfo));
        JsonNode node = tree.get("Hostinfo");
        assertTrue(node.isObject(), node.getNodeType().toString());
        assertEquals("laptop", node.get("Hostname").asString());
        assertEquals(2, node.get("NewerField").size());
    }
}
