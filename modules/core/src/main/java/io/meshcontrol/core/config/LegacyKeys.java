package io.meshcontrol.core.config;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.BooleanNode;

/**
 * Keys from older files (headscale's {@code database.gorm} block and a few renamed keys) that are still read, each
 * with a deprecation warning, and moved to their current key unless the file sets that key itself.
 */
final class LegacyKeys {

    /** The entries with legacy keys translated, the deprecation warnings, and legacy values that could not be read. */
    record Result(Map<String, JsonNode> entries, List<String> warnings, List<ConfigProblem> problems) {
    }

    private static final String GORM_BLOCK = "database.gorm";

    @FunctionalInterface
    private interface Translation {
        JsonNode apply(JsonNode node) throws ValueDecoder.InvalidValueException;
    }

    /** A legacy key; {@code newPath} null means it has no counterpart and is ignored. */
    private record Legacy(String oldPath, String newPath, Translation translation, String advice) {
    }

    private static final List<Legacy> LEGACY = List.of(
            new Legacy(GORM_BLOCK + ".prepare_stmt", null, node -> node,
                    "statements are always prepared, so it has no effect"),
            rename(GORM_BLOCK + ".parameterized_queries", "database.query_log.parameterized"),
            // GORM's switch skips logging; ours turns logging on, so the value flips.
            new Legacy(GORM_BLOCK + ".skip_err_record_not_found", "database.query_log.log_not_found", LegacyKeys::negate,
                    "use database.query_log.log_not_found (with the opposite value) instead"),
            rename(GORM_BLOCK + ".slow_threshold", "database.query_log.slow_threshold"),
            rename("derp.server.automatically_add_embedded_derp_region", "derp.automatically_add_embedded_derp_region"),
            rename("ephemeral_node_inactivity_timeout", "node.ephemeral.inactivity_timeout"));

    private LegacyKeys() {
    }

    /** Whether {@code path} is a legacy key (or the legacy {@code database.gorm} block) that a file may still hold. */
    static boolean isLegacy(String path) {
        return path.equals(GORM_BLOCK) || path.startsWith(GORM_BLOCK + ".")
                || LEGACY.stream().anyMatch(legacy -> legacy.oldPath().equals(path));
    }

    static Result translate(Map<String, JsonNode> fileEntries) {
        Map<String, JsonNode> entries = new LinkedHashMap<>(fileEntries);
        List<String> warnings = new ArrayList<>();
        List<ConfigProblem> problems = new ArrayList<>();
        for (Legacy legacy : LEGACY) {
            if (!entries.containsKey(legacy.oldPath())) {
                continue;
            }
            JsonNode node = entries.remove(legacy.oldPath());
            if (legacy.newPath() == null) {
                warnings.add(legacy.oldPath() + " is deprecated and ignored: " + legacy.advice());
            } else if (entries.containsKey(legacy.newPath())) {
                warnings.add(legacy.oldPath() + " is deprecated and ignored because " + legacy.newPath() + " is set");
            } else {
                warnings.add(legacy.oldPath() + " is deprecated: " + legacy.advice());
                if (!node.isNull()) {
                    try {
                        entries.put(legacy.newPath(), legacy.translation().apply(node));
                    } catch (ValueDecoder.InvalidValueException e) {
                        problems.add(new ConfigProblem(legacy.oldPath(), e.getMessage()));
                    }
                }
            }
        }
        // Whatever else the old block held has no counterpart here.
        entries.keySet().removeIf(path -> {
            if (path.equals(GORM_BLOCK)) {
                warnings.add(GORM_BLOCK + " is deprecated: its settings moved to database.query_log");
                return true;
            }
            if (path.startsWith(GORM_BLOCK + ".")) {
                warnings.add(path + " is deprecated and ignored: it has no counterpart in database.query_log");
                return true;
            }
            return false;
        });
        return new Result(entries, warnings, problems);
    }

    private static Legacy rename(String oldPath, String newPath) {
        return new Legacy(oldPath, newPath, node -> node, "use " + newPath + " instead");
    }

    private static JsonNode negate(JsonNode node) throws ValueDecoder.InvalidValueException {
        if (node.isContainer()) {
            throw new ValueDecoder.InvalidValueException("must be true or false, not " + (node.isArray() ? "a list" : "a mapping"));
        }
        boolean value = node.isBoolean() ? node.booleanValue() : ValueDecoder.bool(node.asString());
        return BooleanNode.valueOf(!value);
    }
}
