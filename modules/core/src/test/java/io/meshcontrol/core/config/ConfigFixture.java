package io.meshcontrol.core.config;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/** Loads configurations from a temporary working directory, with no home and an empty system directory. */
final class ConfigFixture {

    private final Path dir;

    ConfigFixture(Path dir) {
        this.dir = dir;
    }

    Path dir() {
        return dir;
    }

    /** Writes {@code ./config.yaml} and loads it with the given environment. */
    LoadedConfig load(String yaml, Map<String, String> env) {
        write(dir.resolve("config.yaml"), yaml);
        return loadEnv(env);
    }

    LoadedConfig load(String yaml) {
        return load(yaml, Map.of());
    }

    /** Loads with no file at all. */
    LoadedConfig loadEnv(Map<String, String> env) {
        return ConfigLoader.load(new ConfigRequest(null, env, dir, null, dir.resolve("no-system-dir")));
    }

    static Path write(Path file, String text) {
        try {
            Files.createDirectories(file.getParent());
            return Files.writeString(file, text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The errors as text, leaving out reports of keys that are not supported yet (UnsupportedKeysTest covers those). */
    static List<String> messages(LoadedConfig loaded) {
        return errors(loaded).stream().map(ConfigProblem::toString).toList();
    }

    /**
     * The errors that are about values, leaving out reports of keys that are not supported yet: tests of how a key is
     * read and checked still use those keys.
     */
    static List<ConfigProblem> errors(LoadedConfig loaded) {
        return loaded.errors().stream().filter(problem -> !problem.reason().startsWith("is not supported yet")).toList();
    }

    /** The warnings, leaving out reports of keys that are not supported yet. */
    static List<String> warnings(LoadedConfig loaded) {
        return loaded.warnings().stream().filter(warning -> !warning.contains(" is not supported yet")).toList();
    }
}
