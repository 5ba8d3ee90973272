package io.meshcontrol.core.config;

import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * One configuration key: its dotted path, value type, built-in default and a one-line description.
 *
 * @param path        dotted path as written in the YAML file, e.g. {@code database.sqlite.path}
 * @param type        the value's type
 * @param defaultValue the built-in default, already decoded (see {@link ValueType} for the Java shapes)
 * @param choices     the accepted words of a {@link ValueType#CHOICE} key, else empty
 * @param check       a rule the value must also satisfy beyond its type
 * @param description one line for the example file and the documentation
 */
public record ConfigKey(String path, ValueType type, Object defaultValue, List<String> choices, Check check,
                        String description) {

    /** A rule on a decoded value beyond its type; answers the reason it fails, or empty when it holds. */
    @FunctionalInterface
    public interface Check {
        Check NONE = value -> Optional.empty();

        Optional<String> problem(Object value);
    }

    public ConfigKey {
        Objects.requireNonNull(path);
        Objects.requireNonNull(type);
        Objects.requireNonNull(check);
        choices = List.copyOf(choices);
        if (!type.holds(defaultValue)) {
            throw new IllegalArgumentException(path + ": default " + defaultValue + " is not " + type.description());
        }
        if (type == ValueType.CHOICE && !choices.contains(defaultValue)) {
            throw new IllegalArgumentException(path + ": default " + defaultValue + " is not among " + choices);
        }
        if (description.isBlank() || description.contains("\n")) {
            throw new IllegalArgumentException(path + ": the description must be one non-empty line");
        }
    }

    /** The environment variable that overrides this key: {@code SVC_} + path, upper case, dots as underscores. */
    public String envName() {
        return "SVC_" + path.toUpperCase(Locale.ROOT).replace('.', '_');
    }

    ConfigKey withCheck(Check newCheck) {
        return new ConfigKey(path, type, defaultValue, choices, newCheck, description);
    }
}
