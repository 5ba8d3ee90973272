package io.meshcontrol.core.config;

import io.meshcontrol.core.GoDuration;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.StringNode;

/**
 * Turns a YAML node or an environment variable's text into the Java value of a key's {@link ValueType}.
 *
 * <p>The environment is decoded through the same path as the file: a variable's text is treated like a quoted YAML
 * string, except that maps and lists of objects are JSON. So {@code ""} means the same in both places: the empty
 * string, an empty list or map, a zero duration or number, false, or none for optional keys.
 */
final class ValueDecoder {

    /** Why a value does not fit its key, e.g. {@code must be a whole number (got "abc")}. */
    static final class InvalidValueException extends Exception {
        InvalidValueException(String reason) {
            super(reason, null, false, false);
        }
    }

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private ValueDecoder() {
    }

    /** Decodes the text of an environment variable. */
    static Object fromEnv(ConfigKey key, String text) throws InvalidValueException {
        return switch (key.type()) {
            case STRING_MAP, STRING_LIST_MAP, RECORD_LIST -> text.isBlank() ? empty(key.type()) : fromYaml(key, json(key, text));
            default -> fromYaml(key, StringNode.valueOf(text));
        };
    }

    /**
     * Decodes a YAML node that is present and not null (a null means "not set" or "none", which the caller decides).
     */
    static Object fromYaml(ConfigKey key, JsonNode node) throws InvalidValueException {
        return switch (key.type()) {
            case STRING -> scalar(key, node);
            case OPTIONAL_STRING -> optional(scalar(key, node));
            case PATH -> path(scalar(key, node));
            case OPTIONAL_PATH -> {
                String text = scalar(key, node);
                yield text.isEmpty() ? Optional.empty() : Optional.of(path(text));
            }
            case CHOICE -> choice(key, scalar(key, node));
            case BOOLEAN -> node.isBoolean() ? node.booleanValue() : bool(scalar(key, node));
            case INTEGER -> integer(key, node);
            case DURATION -> duration(key, node);
            case MILLISECONDS -> millis(key, node);
            case STRING_LIST -> stringList(key, node);
            case STRING_MAP -> stringMap(key, node);
            case STRING_LIST_MAP -> stringListMap(key, node);
            case RECORD_LIST -> recordList(key, node);
        };
    }

    private static Object empty(ValueType type) {
        return type == ValueType.RECORD_LIST ? List.of() : Map.of();
    }

    private static JsonNode json(ConfigKey key, String text) throws InvalidValueException {
        try {
            return JSON.readTree(text);
        } catch (JacksonException e) {
            throw new InvalidValueException("must be " + (key.type() == ValueType.RECORD_LIST ? "a JSON array" : "a JSON object")
                    + " in the environment (got " + Quote.of(text) + ")");
        }
    }

    private static String scalar(ConfigKey key, JsonNode node) throws InvalidValueException {
        if (node.isContainer()) {
            throw new InvalidValueException("must be " + key.type().description() + ", not " + shape(node));
        }
        return node.asString();
    }

    private static Optional<String> optional(String text) {
        return text.isEmpty() ? Optional.empty() : Optional.of(text);
    }

    private static String path(String text) throws InvalidValueException {
        if (text.isEmpty()) {
            throw new InvalidValueException("must be a file path, not empty");
        }
        Optional<String> problem = Checks.filePathProblem(text);
        if (problem.isPresent()) {
            throw new InvalidValueException(problem.get());
        }
        return text;
    }

    private static String choice(ConfigKey key, String text) throws InvalidValueException {
        for (String choice : key.choices()) {
            if (choice.equalsIgnoreCase(text)) {
                return choice;
            }
        }
        throw new InvalidValueException("must be one of " + String.join(", ", key.choices()) + " (got " + Quote.of(text) + ")");
    }

    /** The spec's boolean literals; the empty string is false, as an explicit empty value. */
    static boolean bool(String text) throws InvalidValueException {
        return switch (text.trim().toLowerCase(Locale.ROOT)) {
            case "true", "1", "yes" -> true;
            case "false", "0", "no", "" -> false;
            default -> throw new InvalidValueException("must be true or false (or 1/0, yes/no) (got " + Quote.of(text) + ")");
        };
    }

    private static int integer(ConfigKey key, JsonNode node) throws InvalidValueException {
        if (node.isIntegralNumber() && node.canConvertToInt()) {
            return node.intValue();
        }
        String text = scalar(key, node).trim();
        if (text.isEmpty()) {
            return 0;
        }
        if (text.matches("[-+]?\\d{1,10}")) {
            long value = Long.parseLong(text);
            if (value >= Integer.MIN_VALUE && value <= Integer.MAX_VALUE) {
                return (int) value;
            }
        }
        throw new InvalidValueException("must be " + key.type().description() + " (got " + Quote.of(node.asString()) + ")");
    }

    private static Duration millis(ConfigKey key, JsonNode node) throws InvalidValueException {
        int millis = integer(key, node);
        if (millis < 0) {
            throw new InvalidValueException("must not be negative (got " + millis + ")");
        }
        return Duration.ofMillis(millis);
    }

    private static Duration duration(ConfigKey key, JsonNode node) throws InvalidValueException {
        if (node.isNumber() && node.asString().matches("0+(\\.0*)?")) {
            return Duration.ZERO;
        }
        String text = scalar(key, node).trim();
        if (text.isEmpty()) {
            return Duration.ZERO;
        }
        Duration duration;
        try {
            duration = GoDuration.parse(text);
        } catch (IllegalArgumentException e) {
            throw new InvalidValueException("must be " + key.type().description() + ": " + e.getMessage());
        }
        if (duration.isNegative()) {
            throw new InvalidValueException("must not be negative (got " + Quote.of(text) + ")");
        }
        return duration;
    }

    private static List<String> stringList(ConfigKey key, JsonNode node) throws InvalidValueException {
        if (node.isArray()) {
            List<String> items = new ArrayList<>();
            for (JsonNode item : node.values()) {
                if (item.isContainer() || item.isNull()) {
                    throw new InvalidValueException("must be a list of strings; item " + (items.size() + 1) + " is " + shape(item));
                }
                items.add(item.asString());
            }
            return List.copyOf(items);
        }
        return split(scalar(key, node));
    }

    /** Space-separated, as the spec writes lists in the environment; a YAML string is read the same way. */
    private static List<String> split(String text) {
        String trimmed = text.strip();
        return trimmed.isEmpty() ? List.of() : List.copyOf(Arrays.asList(trimmed.split("\\s+")));
    }

    private static Map<String, String> stringMap(ConfigKey key, JsonNode node) throws InvalidValueException {
        requireObject(key, node);
        Map<String, String> map = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> entry : node.properties()) {
            JsonNode value = entry.getValue();
            if (value.isContainer() || value.isNull()) {
                throw new InvalidValueException("must map names to strings; " + Quote.of(entry.getKey()) + " is " + shape(value));
            }
            map.put(entry.getKey(), value.asString());
        }
        return Collections.unmodifiableMap(map);
    }

    private static Map<String, List<String>> stringListMap(ConfigKey key, JsonNode node) throws InvalidValueException {
        requireObject(key, node);
        Map<String, List<String>> map = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> entry : node.properties()) {
            JsonNode value = entry.getValue();
            if (value.isObject() || value.isNull()) {
                throw new InvalidValueException("must map names to lists; " + Quote.of(entry.getKey()) + " is " + shape(value));
            }
            map.put(entry.getKey(), stringList(key, value));
        }
        return Collections.unmodifiableMap(map);
    }

    private static List<Map<String, String>> recordList(ConfigKey key, JsonNode node) throws InvalidValueException {
        if (!node.isArray()) {
            throw new InvalidValueException("must be " + key.type().description() + ", not " + shape(node));
        }
        List<Map<String, String>> records = new ArrayList<>();
        for (JsonNode item : node.values()) {
            if (!item.isObject()) {
                throw new InvalidValueException("must be a list of objects; item " + (records.size() + 1) + " is " + shape(item));
            }
            Map<String, String> record = new LinkedHashMap<>();
            for (Map.Entry<String, JsonNode> field : item.properties()) {
                if (field.getValue().isContainer() || field.getValue().isNull()) {
                    throw new InvalidValueException("item " + (records.size() + 1) + ": " + Quote.of(field.getKey())
                            + " must be a string, not " + shape(field.getValue()));
                }
                record.put(field.getKey(), field.getValue().asString());
            }
            records.add(Collections.unmodifiableMap(record));
        }
        return List.copyOf(records);
    }

    private static void requireObject(ConfigKey key, JsonNode node) throws InvalidValueException {
        if (!node.isObject()) {
            throw new InvalidValueException("must be " + key.type().description() + ", not " + shape(node));
        }
    }

    private static String shape(JsonNode node) {
        if (node.isObject()) {
            return "a mapping";
        }
        if (node.isArray()) {
            return "a list";
        }
        if (node.isNull()) {
            return "null";
        }
        return Quote.of(node.asString());
    }
}
