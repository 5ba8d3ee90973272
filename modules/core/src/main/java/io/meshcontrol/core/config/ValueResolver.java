package io.meshcontrol.core.config;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import tools.jackson.databind.JsonNode;

/**
 * Settles each key's value: an {@code SVC_} variable beats the file, the file beats the built-in default. The
 * chosen value is decoded and checked; when it is bad the key is reported and keeps its default, so one bad key
 * never hides another.
 */
final class ValueResolver {

    /** The settled values and a problem for every key whose value was refused, in schema order. */
    record Resolution(ResolvedValues values, List<ConfigProblem> problems) {
    }

    private ValueResolver() {
    }

    /**
     * @param fileEntries YAML nodes by key path (only declared keys are looked at)
     * @param envByKey    raw variable text by key path
     */
    static Resolution resolve(ConfigSchema schema, Map<String, JsonNode> fileEntries, Map<String, String> envByKey) {
        Map<String, Object> values = new LinkedHashMap<>();
        Map<String, String> origins = new LinkedHashMap<>();
        List<ConfigProblem> problems = new ArrayList<>();
        for (ConfigKey key : schema.keys()) {
            String path = key.path();
            String envName = envByKey.containsKey(path) ? key.envName() : null;
            Object value = key.defaultValue();
            Optional<String> problem = Optional.empty();
            try {
                if (envName != null) {
                    value = ValueDecoder.fromEnv(key, envByKey.get(path));
                    origins.put(path, envName);
                } else if (fileEntries.containsKey(path)) {
                    value = fromFile(key, fileEntries.get(path));
                }
                // Defaults are known to pass (a test proves it); only supplied values are checked.
                if (envName != null || fileEntries.containsKey(path)) {
                    problem = key.check().problem(value);
                }
            } catch (ValueDecoder.InvalidValueException e) {
                problem = Optional.of(e.getMessage());
            }
            if (problem.isPresent()) {
                problems.add(new ConfigProblem(path, problem.get() + (envName == null ? "" : "; set by " + envName)));
                value = key.defaultValue();
            }
            values.put(path, value);
        }
        return new Resolution(new ResolvedValues(schema, values, origins), problems);
    }

    /** A key with no value (YAML null) counts as not set, except that for optional keys it means none. */
    private static Object fromFile(ConfigKey key, JsonNode node) throws ValueDecoder.InvalidValueException {
        if (node.isNull()) {
            return key.type().optional() ? Optional.empty() : key.defaultValue();
        }
        return ValueDecoder.fromYaml(key, node);
    }
}
