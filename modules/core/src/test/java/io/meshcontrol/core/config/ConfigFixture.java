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

    static List<String> messages(LoadedConfig loaded) {
        return loaded.errors().stream().map(ConfigProblem::toString).toList();
    }
}
