package io.meshcontrol.core.config;

import java.util.Objects;

/**
 * One thing wrong with the configuration.
 *
 * @param key    the dotted key path ({@code log.level}); for a problem with the file itself, the file or the option
 *               that named it ({@code --config}, {@code SVC_CONFIG})
 * @param reason what is wrong, ending with the offending value where there is one
 */
public record ConfigProblem(String key, String reason) {

    public ConfigProblem {
        Objects.requireNonNull(key);
        Objects.requireNonNull(reason);
    }

    /** {@code log.level: must be one of panic, fatal, error, warn, info, debug, trace (got "loud")}. */
    @Override
    public String toString() {
        return key + ": " + reason;
    }
}
