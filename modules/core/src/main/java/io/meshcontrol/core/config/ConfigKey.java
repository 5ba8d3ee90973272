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
 * @param support     whether the server acts on the key yet
 */
public record ConfigKey(String path, ValueType type, Object defaultValue, List<String> choices, Check check,
                        String description, Support support) {

    /**
     * Whether the server acts on a key. A key that is not supported yet is still declared (so a headscale file or a
     * file written for a later version loads), but a value other than its default is reported by {@link ConfigLoader}.
     * {@code UnsupportedKeysTest} in the cli module fails when a key is read by no code and not marked here.
     */
    public enum Support {
        /** The server (or the CLI, for {@code cli.*}) reads the key and honours it. */
        SUPPORTED,
        /** Ignored for now; a changed value is a warning. */
        NOT_YET
    }

    /** A rule on a decoded value beyond its type; answers the reason it fails, or empty when it holds. */
    @FunctionalInterface
    public interface Check {
        Check NONE = value -> Optional.empty();

        Optional<String> problem(Object value);

        /**
         * The rule in a few words, as the key reference in {@code docs/configuration.md} shows it (after "must be");
         * empty only for {@link #NONE}.
         */
        default String rule() {
            return "";
        }

        /** {@code check} with the words the key reference shows for it. */
        static Check described(String rule, Check check) {
            return new Check() {
                @Override
                public Optional<String> problem(Object value) {
                    return check.problem(value);
                }

                @Override
                public String rule() {
                    return rule;
                }
            };
        }
    }

    public ConfigKey {
        Objects.requireNonNull(path);
        Objects.requireNonNull(type);
        Objects.requireNonNull(check);
        Objects.requireNonNull(support);
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
        return new ConfigKey(path, type, defaultValue, choices, newCheck, description, support);
    }

    /** This key, declared but not acted on yet. */
    ConfigKey notYet(Support newSupport) {
        return new ConfigKey(path, type, defaultValue, choices, check, description, newSupport);
    }
}
