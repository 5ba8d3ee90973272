package io.meshcontrol.core.config;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Decides which {@code config.yaml} is read. The first match wins, most specific first:
 * <ol>
 *   <li>the {@code -c}/{@code --config} path;</li>
 *   <li>{@code SVC_CONFIG} (an empty value counts as unset);</li>
 *   <li>{@code ./config.yaml} in the working directory;</li>
 *   <li>{@code $HOME/.svc/config.yaml};</li>
 *   <li>{@code /etc/svc/config.yaml}.</li>
 * </ol>
 * A named file that does not exist is an error; finding nothing in the search is fine (built-in defaults). Files
 * are never merged: the others found by the search are named in a warning, so nobody edits the one not read.
 */
public final class ConfigFileLocator {

    static final String FILE_NAME = "config.yaml";
    static final String ENV_VARIABLE = "SVC_CONFIG";

    /** The file to read (if any), a problem with a named file, and warnings about files left unread. */
    public record Located(Optional<Path> file, Optional<ConfigProblem> problem, List<String> warnings) {
    }

    private ConfigFileLocator() {
    }

    public static Located locate(ConfigRequest request) {
        if (request.explicitPath() != null) {
            return named("--config", request.workingDir().resolve(request.explicitPath()));
        }
        String fromEnv = request.env().getOrDefault(ENV_VARIABLE, "");
        if (!fromEnv.isEmpty()) {
            return named(ENV_VARIABLE, request.workingDir().resolve(fromEnv));
        }
        List<Path> found = new ArrayList<>();
        for (Path candidate : candidates(request)) {
            if (Files.isRegularFile(candidate)) {
                found.add(candidate);
            }
        }
        if (found.isEmpty()) {
            return new Located(Optional.empty(), Optional.empty(), List.of());
        }
        List<String> warnings = found.stream().skip(1)
                .map(other -> other + " is not read: " + found.get(0) + " comes first in the search order")
                .toList();
        return new Located(Optional.of(found.get(0)), Optional.empty(), warnings);
    }

    /** The search locations, in the order they are tried. */
    public static List<Path> candidates(ConfigRequest request) {
        List<Path> candidates = new ArrayList<>();
        candidates.add(request.workingDir().resolve(FILE_NAME));
        if (request.homeDir() != null) {
            candidates.add(request.homeDir().resolve(".svc").resolve(FILE_NAME));
        }
        candidates.add(request.systemDir().resolve(FILE_NAME));
        return candidates;
    }

    private static Located named(String namedBy, Path path) {
        Path file = path.normalize();
        if (!Files.exists(file)) {
            return failed(namedBy, file + " does not exist");
        }
        if (!Files.isRegularFile(file)) {
            return failed(namedBy, file + " is not a regular file");
        }
        return new Located(Optional.of(file), Optional.empty(), List.of());
    }

    private static Located failed(String namedBy, String reason) {
        return new Located(Optional.empty(), Optional.of(new ConfigProblem(namedBy, reason)), List.of());
    }
}
