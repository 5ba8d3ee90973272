package io.meshcontrol.core.config;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import tools.jackson.core.JacksonException;
import tools.jackson.core.TokenStreamLocation;
import tools.jackson.databind.JsonNode;

/**
 * Reads a YAML configuration file into flat entries: dotted path to the YAML node found there. Flattening stops at
 * declared keys, so a map-valued key such as {@code oidc.extra_params} stays one entry; anything else that is not a
 * declared section is kept as an entry too, for the loader to report as unknown (or to translate, if deprecated).
 */
final class ConfigFileReader {

    /** The flattened entries in file order, and problems that stopped part of the file from being read. */
    record FileEntries(Map<String, JsonNode> entries, List<ConfigProblem> problems) {
    }

    private ConfigFileReader() {
    }

    static FileEntries read(Path file, ConfigSchema schema) {
        String text;
        try {
            text = Files.readString(file);
        } catch (IOException e) {
            return failed(file.toString(), "cannot be read: " + e);
        }
        return parse(text, file.toString(), schema);
    }

    /** @param sourceName names the file in problems */
    static FileEntries parse(String yaml, String sourceName, ConfigSchema schema) {
        JsonNode root;
        try {
            root = YamlTree.read(yaml);
        } catch (YamlTree.RefusedException e) {
            return failed(sourceName, e.getMessage());
        } catch (JacksonException e) {
            TokenStreamLocation at = e.getLocation();
            String where = at == null || at.getLineNr() < 0 ? "" : " at line " + at.getLineNr();
            return failed(sourceName, "is not valid YAML" + where + ": " + oneLine(e.getOriginalMessage()));
        }
        if (root == null || root.isMissingNode() || root.isNull()) {
            return new FileEntries(Map.of(), List.of()); // an empty file, or one with only comments
        }
        if (!root.isObject()) {
            return failed(sourceName, "must hold a mapping of keys at the top level");
        }
        Map<String, JsonNode> entries = new LinkedHashMap<>();
        List<ConfigProblem> problems = new ArrayList<>();
        flatten(root, "", schema, entries, problems);
        return new FileEntries(entries, problems);
    }

    private static void flatten(JsonNode object, String prefix, ConfigSchema schema, Map<String, JsonNode> entries,
                                List<ConfigProblem> problems) {
        for (Map.Entry<String, JsonNode> field : object.properties()) {
            String path = prefix.isEmpty() ? field.getKey() : prefix + "." + field.getKey();
            JsonNode node = field.getValue();
            if (schema.key(path).isPresent()) {
                entries.put(path, node);
            } else if (node.isObject() && !node.isEmpty()) {
                flatten(node, path, schema, entries, problems);
            } else if (schema.isSection(path)) {
                // "oidc:" with every line below commented out is null; that and {} just mean "nothing set here".
                if (!node.isNull() && !node.isObject()) {
                    problems.add(new ConfigProblem(path, "must be a mapping of keys, not " + describe(node)));
                }
            } else {
                entries.put(path, node);
            }
        }
    }

    /**
     * SnakeYAML's messages span lines and echo the offending text with a caret; a problem is one line, and the
     * line number is already given, so keep only the explanation.
     */
    private static String oneLine(String message) {
        String text = message.lines()
                .filter(line -> !line.isBlank() && !Character.isWhitespace(line.charAt(0)))
                .collect(Collectors.joining("; "));
        return text.replaceFirst("^Duplicate Object property (\".*\")", "key $1 appears twice");
    }

    private static String describe(JsonNode node) {
        return node.isArray() ? "a list" : Quote.of(node.asString());
    }

    private static FileEntries failed(String sourceName, String reason) {
        return new FileEntries(Map.of(), List.of(new ConfigProblem(sourceName, reason)));
    }
}
