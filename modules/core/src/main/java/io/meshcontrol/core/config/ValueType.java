package io.meshcontrol.core.config;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The kinds of value a configuration key holds, and the Java type each is decoded to. Decoding rules (environment
 * text forms, what the empty string means) live in {@link ValueDecoder}.
 */
public enum ValueType {
    /** {@code String}; the empty string is a value. */
    STRING("a string"),
    /** {@code Optional<String>}; null or the empty string means none. */
    OPTIONAL_STRING("a string, or null for none"),
    /** A file path as a {@code String}; must not be empty. Relative paths are relative to the working directory. */
    PATH("a file path"),
    /** {@code Optional<String>} path; null or the empty string means none. */
    OPTIONAL_PATH("a file path, or null for none"),
    /** {@code Boolean}; true/false, 1/0, yes/no. */
    BOOLEAN("true or false"),
    /** {@code Integer}. */
    INTEGER("a whole number"),
    /** {@code Duration}, written in Go syntax. */
    DURATION("a duration such as 90s, 30m or 720h"),
    /** {@code Duration}, written as a whole number of milliseconds. */
    MILLISECONDS("a whole number of milliseconds"),
    /** {@code List<String>}; space-separated in the environment. */
    STRING_LIST("a list of strings"),
    /** {@code Map<String, String>}; a JSON object in the environment. */
    STRING_MAP("a map of strings"),
    /** {@code Map<String, List<String>>}; a JSON object in the environment. */
    STRING_LIST_MAP("a map from string to list of strings"),
    /** {@code List<Map<String, String>>}; a JSON array of objects in the environment. */
    RECORD_LIST("a list of objects"),
    /** {@code String}, one of the key's choices, in the spelling the schema gives. */
    CHOICE("one of the listed words");

    private final String description;

    ValueType(String description) {
        this.description = description;
    }

    /** What a value of this type looks like, for messages. */
    public String description() {
        return description;
    }

    /** Whether "none" is a value of this type (YAML null and the empty string mean none). */
    public boolean optional() {
        return this == OPTIONAL_STRING || this == OPTIONAL_PATH;
    }

    /** Whether a decoded value has this type's Java shape; guards the schema's defaults. */
    boolean holds(Object value) {
        return switch (this) {
            case STRING, PATH, CHOICE -> value instanceof String;
            case OPTIONAL_STRING, OPTIONAL_PATH -> value instanceof Optional<?> o && o.map(String.class::isInstance).orElse(true);
            case BOOLEAN -> value instanceof Boolean;
            case INTEGER -> value instanceof Integer;
            case DURATION, MILLISECONDS -> value instanceof Duration;
            case STRING_LIST -> value instanceof List<?> l && l.stream().allMatch(String.class::isInstance);
            case STRING_MAP -> value instanceof Map<?, ?> m && m.values().stream().allMatch(String.class::isInstance);
            case STRING_LIST_MAP -> value instanceof Map<?, ?> m && m.values().stream().allMatch(List.class::isInstance);
            case RECORD_LIST -> value instanceof List<?> l && l.stream().allMatch(Map.class::isInstance);
        };
    }
}
