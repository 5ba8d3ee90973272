package io.meshcontrol.relay.map;

import io.meshcontrol.core.policy.HuJson;
import io.meshcontrol.core.wire.DERPNode;
import io.meshcontrol.core.wire.DERPRegion;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * Reads one DERP map source into a {@link MapLayer}. The extension picks the format: {@code .yaml}/{@code .yml} with
 * lowercase field names (headscale's files), {@code .json}/{@code .hujson} in the vendor's shape ({@code Regions},
 * {@code RegionID} ...; comments and trailing commas allowed). Field names are matched without regard to case, as
 * Go's JSON decoder does, so both spellings read the same. Unknown fields are ignored, as Go ignores them.
 *
 * <p>Errors about a map from a URL never quote its text: the server at the URL is not trusted, and an error is shown
 * to API callers and written to the log (a refused map could otherwise carry whatever the remote side wants into
 * either). They say where (line and column) and what was wrong. A file's errors quote it, as its author needs.
 */
public final class DerpMapFile {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final YAMLMapper YAML = YAMLMapper.builder().build();

    private DerpMapFile() {
    }

    /** Reads a {@code derp.paths} file; a file that adds, removes and scores nothing is refused. */
    public static MapLayer read(Path file) {
        String name = file.getFileName().toString().toLowerCase(Locale.ROOT);
        boolean yaml;
        if (name.endsWith(".yaml") || name.endsWith(".yml")) {
            yaml = true;
        } else if (name.endsWith(".json") || name.endsWith(".hujson")) {
            yaml = false;
        } else {
            throw new MapSourceException("DERP map file " + file + " must end in .yaml, .yml, .json or .hujson");
        }
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (IOException e) {
            throw new MapSourceException("cannot read DERP map file " + file + ": " + e.getMessage(), e);
        }
        MapLayer layer = parse(file.toString(), bytes, yaml, true);
        if (layer.isEmpty()) {
            throw new MapSourceException("DERP map file " + file + " adds no region, removes none and sets no "
                    + "positive score: it would change nothing (check its field names and format)");
        }
        return layer;
    }

    /** Reads a map in the vendor's JSON shape, as map URLs serve it; its errors quote nothing of it. */
    public static MapLayer readJson(String source, byte[] bytes) {
        return parse(source, bytes, false, false);
    }

    /** @param quote whether errors may quote the text (a local file) or not (a remote answer) */
    static MapLayer parse(String source, byte[] bytes, boolean yaml, boolean quote) {
        JsonNode root;
        String text = new String(bytes, StandardCharsets.UTF_8);
        if (yaml && text.lines().allMatch(line -> line.isBlank() || line.strip().startsWith("#"))) {
            return new MapLayer(source, Map.of(), Set.of(), Map.of(), false); // an empty YAML document
        }
        try {
            root = yaml ? YAML.readTree(bytes)
                    : JSON.readTree(HuJson.standardize(text));
        } catch (JacksonException e) {
            String where = e.getLocation() == null ? "" : " at line " + e.getLocation().getLineNr() + ", column "
                    + e.getLocation().getColumnNr();
            // Jackson's message quotes the offending text; the location says enough for a remote answer.
            throw new MapSourceException("DERP map " + source + " is not valid " + (yaml ? "YAML" : "JSON")
                    + (quote ? ": " + e.getOriginalMessage() : where), quote ? e : null);
        }
        if (root == null || root.isMissingNode() || root.isNull()) {
            root = JSON.createObjectNode();
        }
        if (!root.isObject()) {
            throw new MapSourceException("DERP map " + source + " must be an object with \"regions\"");
        }
        Map<Integer, DERPRegion> regions = new HashMap<>();
        Set<Integer> removed = new HashSet<>();
        JsonNode regionNodes = field(root, "regions");
        if (regionNodes != null && !regionNodes.isNull()) {
            if (!regionNodes.isObject()) {
                throw new MapSourceException("DERP map " + source + ": \"regions\" must map region ids to regions");
            }
            for (Map.Entry<String, JsonNode> entry : regionNodes.properties()) {
                int id = regionId(source, entry.getKey(), quote);
                if (entry.getValue().isNull()) {
                    removed.add(id);
                } else {
                    regions.put(id, region(source, id, entry.getValue()));
                }
            }
        }
        Map<Integer, Double> scores = new HashMap<>();
        JsonNode home = field(root, "homeparams");
        JsonNode scoreNodes = home == null ? null : field(home, "regionscore");
        if (scoreNodes != null && scoreNodes.isObject()) {
            for (Map.Entry<String, JsonNode> entry : scoreNodes.properties()) {
                double score = entry.getValue().asDouble(0);
                if (score > 0) { // zero and negative scores mean nothing to clients: ignored
                    scores.put(regionId(source, entry.getKey(), quote), score);
                }
            }
        }
        JsonNode omit = field(root, "omitdefaultregions");
        return new MapLayer(source, regions, removed, scores, omit != null && omit.asBoolean(false));
    }

    private static DERPRegion region(String source, int id, JsonNode node) {
        if (!node.isObject()) {
            throw new MapSourceException("DERP map " + source + ": region " + id + " must be an object or null");
        }
        int declared = integer(node, "regionid", id);
        if (declared != id) {
            throw new MapSourceException("DERP map " + source + ": region " + id + " says regionid " + declared);
        }
        List<DERPNode> nodes = new ArrayList<>();
        JsonNode nodeList = field(node, "nodes");
        if (nodeList != null && nodeList.isArray()) {
            for (JsonNode n : nodeList) {
                String host = text(n, "hostname");
                if (host == null || host.isBlank()) {
                    throw new MapSourceException("DERP map " + source + ": a node of region " + id + " has no hostname");
                }
                nodes.add(DERPNode.builder()
                        .name(text(n, "name") == null ? id + "" + (char) ('a' + nodes.size()) : text(n, "name"))
                        .regionId(integer(n, "regionid", id))
                        .hostName(host)
                        .certName(text(n, "certname"))
                        .ipv4(text(n, "ipv4"))
                        .ipv6(text(n, "ipv6"))
                        .stunPort(integer(n, "stunport", 0))
                        .stunOnly(bool(n, "stunonly"))
                        .derpPort(integer(n, "derpport", 0))
                        .insecureForTests(bool(n, "insecurefortests"))
                        .stunTestIp(text(n, "stuntestip"))
                        .canPort80(bool(n, "canport80"))
                        .build());
            }
        }
        if (nodes.isEmpty()) {
            throw new MapSourceException("DERP map " + source + ": region " + id + " has no nodes");
        }
        return new DERPRegion(id, text(node, "regioncode"), text(node, "regionname"),
                field(node, "latitude") == null ? 0 : field(node, "latitude").asDouble(0),
                field(node, "longitude") == null ? 0 : field(node, "longitude").asDouble(0),
                bool(node, "avoid"), bool(node, "nomeasurenohome"), nodes);
    }

    private static int regionId(String source, String key, boolean quote) {
        try {
            int id = Integer.parseInt(key.trim());
            if (id > 0) {
                return id;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new MapSourceException("DERP map " + source + ": " + (quote ? "region id \"" + key + "\"" : "a region id")
                + " is not a positive number");
    }

    /** The field whose name equals {@code lowercase} ignoring case. */
    private static JsonNode field(JsonNode node, String lowercase) {
        for (Map.Entry<String, JsonNode> entry : node.properties()) {
            if (entry.getKey().toLowerCase(Locale.ROOT).equals(lowercase)) {
                return entry.getValue();
            }
        }
        return null;
    }

    private static String text(JsonNode node, String name) {
        JsonNode value = field(node, name);
        return value == null || value.isNull() ? null : value.asString();
    }

    private static int integer(JsonNode node, String name, int absent) {
        JsonNode value = field(node, name);
        return value == null || value.isNull() ? absent : value.asInt(absent);
    }

    private static boolean bool(JsonNode node, String name) {
        JsonNode value = field(node, name);
        return value != null && value.asBoolean(false);
    }
}
