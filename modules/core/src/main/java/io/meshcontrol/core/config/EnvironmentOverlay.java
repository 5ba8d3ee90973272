package io.meshcontrol.core.config;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Picks the {@code SVC_} variables that override keys: {@code SVC_} + the key path in upper case with dots as
 * underscores ({@code database.sqlite.path} is {@code SVC_DATABASE_SQLITE_PATH}). The mapping runs from the schema
 * to the variable name, so underscores inside key names ({@code write_ahead_log}) are never ambiguous.
 */
final class EnvironmentOverlay {

    static final String PREFIX = "SVC_";

    /** Raw override text by key path, and warnings about {@code SVC_} variables that match no key. */
    record Overrides(Map<String, String> byKey, List<String> warnings) {
    }

    /**
     * {@code SVC_} variables that belong to the launcher and the tooling, not to the configuration: never
     * reported as unknown keys.
     */
    static final java.util.Set<String> NOT_CONFIGURATION = java.util.Set.of(ConfigFileLocator.ENV_VARIABLE,
            "SVC_JAVA_OPTS", "SVC_JDK_DIRS", "SVC_CLIENTS_DIR", "SVC_COMMAND_NAME",
            "SVC_STDOUT_FD");

    private EnvironmentOverlay() {
    }

    static Overrides select(ConfigSchema schema, Map<String, String> env) {
        Map<String, String> byKey = new LinkedHashMap<>();
        List<String> warnings = new ArrayList<>();
        List<String> envNames = schema.keys().stream().map(ConfigKey::envName).toList();
        for (Map.Entry<String, String> variable : new TreeMap<>(env).entrySet()) {
            String name = variable.getKey();
            if (!name.startsWith(PREFIX) || NOT_CONFIGURATION.contains(name)) {
                continue;
            }
            schema.keyForEnvName(name).ifPresentOrElse(
                    key -> byKey.put(key.path(), variable.getValue()),
                    () -> warnings.add("environment variable " + name + " matches no configuration key and is ignored"
                            + Suggestions.closest(name, envNames).map(s -> " (did you mean " + s + "?)").orElse("")));
        }
        return new Overrides(byKey, warnings);
    }
}
