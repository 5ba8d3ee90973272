package io.meshcontrol.core.config;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The final decoded value of every key (environment over file over default), read by the validator and the binder
 * through typed getters. It remembers which keys were read, so a test can prove the binder uses every declared key.
 */
final class ResolvedValues {

    private final ConfigSchema schema;
    private final Map<String, Object> values;
    private final Map<String, String> origins;
    private final Set<String> read = new LinkedHashSet<>();

    /**
     * @param values  a decoded value for every key of the schema
     * @param origins for keys set by an environment variable, that variable's name
     */
    ResolvedValues(ConfigSchema schema, Map<String, Object> values, Map<String, String> origins) {
        for (ConfigKey key : schema.keys()) {
            if (!key.type().holds(values.get(key.path()))) {
                throw new IllegalArgumentException(key.path() + ": " + values.get(key.path()) + " is not " + key.type().description());
            }
        }
        this.schema = schema;
        this.values = Map.copyOf(values);
        this.origins = Map.copyOf(origins);
    }

    static ResolvedValues defaults(ConfigSchema schema) {
        Map<String, Object> values = new LinkedHashMap<>();
        schema.keys().forEach(key -> values.put(key.path(), key.defaultValue()));
        return new ResolvedValues(schema, values, Map.of());
    }

    ConfigSchema schema() {
        return schema;
    }

    /** The environment variable that set {@code path}, if one did. */
    Optional<String> origin(String path) {
        return Optional.ofNullable(origins.get(path));
    }

    /** The decoded value of {@code path}, whatever its type; not counted as read. */
    Object raw(String path) {
        return values.get(path);
    }

    Set<String> keysRead() {
        return Set.copyOf(read);
    }

    String string(String path) {
        return get(path, ValueType.STRING, ValueType.PATH, ValueType.CHOICE);
    }

    Optional<String> optional(String path) {
        return get(path, ValueType.OPTIONAL_STRING, ValueType.OPTIONAL_PATH);
    }

    boolean bool(String path) {
        return get(path, ValueType.BOOLEAN);
    }

    int integer(String path) {
        return get(path, ValueType.INTEGER);
    }

    Duration duration(String path) {
        return get(path, ValueType.DURATION, ValueType.MILLISECONDS);
    }

    List<String> stringList(String path) {
        return get(path, ValueType.STRING_LIST);
    }

    Map<String, String> stringMap(String path) {
        return get(path, ValueType.STRING_MAP);
    }

    Map<String, List<String>> stringListMap(String path) {
        return get(path, ValueType.STRING_LIST_MAP);
    }

    List<Map<String, String>> recordList(String path) {
        return get(path, ValueType.RECORD_LIST);
    }

    <E extends Enum<E> & ConfigChoice> E choice(String path, Class<E> type) {
        String word = get(path, ValueType.CHOICE);
        return ConfigChoice.fromConfigName(type, word).orElseThrow(() ->
                new IllegalStateException(path + ": " + word + " is not a " + type.getSimpleName()));
    }

    @SuppressWarnings("unchecked")
    private <T> T get(String path, ValueType... types) {
        ConfigKey key = schema.key(path).orElseThrow(() -> new IllegalArgumentException("undeclared key " + path));
        if (!List.of(types).contains(key.type())) {
            throw new IllegalArgumentException(path + " is " + key.type() + ", not " + List.of(types));
        }
        read.add(path);
        return (T) values.get(path);
    }
}
