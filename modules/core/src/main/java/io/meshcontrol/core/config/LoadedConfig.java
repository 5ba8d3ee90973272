package io.meshcontrol.core.config;

import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The outcome of {@link ConfigLoader#load}: the configuration, where it came from, and everything found wrong.
 *
 * @param config   always present; a key with an error holds its built-in default, so callers such as
 *                 {@code svc configtest} can still show the rest
 * @param source   the file that was read, or empty when built-in defaults (and the environment) were used
 * @param errors   every problem that makes the configuration unusable: the file's own, then keys in schema order,
 *                 then rules between keys
 * @param warnings things worth fixing that do not stop the server: unknown keys, deprecated keys, shadowed files
 */
public record LoadedConfig(MeshConfig config, Optional<Path> source, List<ConfigProblem> errors, List<String> warnings) {

    public LoadedConfig {
        Objects.requireNonNull(config);
        Objects.requireNonNull(source);
        errors = List.copyOf(errors);
        warnings = List.copyOf(warnings);
    }

    /** Whether the server may start with this configuration. */
    public boolean valid() {
        return errors.isEmpty();
    }
}
