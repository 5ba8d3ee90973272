package io.meshcontrol.core.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConfigSearchOrderTest {

    @TempDir
    Path root;

    private Path work;
    private Path home;
    private Path system;

    @BeforeEach
    void directories() {
        work = root.resolve("work");
        home = root.resolve("home");
        system = root.resolve("etc-svc");
    }

    private Path configIn(Path dir, String serverUrl) {
        return ConfigFixture.write(dir.resolve("config.yaml"), "server_url: " + serverUrl + "\n");
    }

    private LoadedConfig load(Path explicit, Map<String, String> env) {
        ConfigFixture.write(work.resolve(".keep"), "");
        return ConfigLoader.load(new ConfigRequest(explicit, env, work, home, system));
    }

    @Test
    void noFileAnywhereMeansBuiltInDefaults() {
        LoadedConfig loaded = load(null, Map.of());
        assertTrue(loaded.valid(), loaded.errors().toString());
        assertEquals(Optional.empty(), loaded.source());
        assertEquals("http://127.0.0.1:8080", loaded.config().serverUrl());
        assertEquals(List.of(), loaded.warnings());
    }

    @Test
    void systemDirectoryIsReadWhenNothingElseExists() {
        Path file = configIn(system, "https://system.example.com");
        LoadedConfig loaded = load(null, Map.of());
        assertEquals(Optional.of(file), loaded.source());
        assertEquals("https://system.example.com", loaded.config().serverUrl());
    }

    @Test
    void homeDirectoryBeatsSystemDirectory() {
        configIn(system, "https://system.example.com");
        Path file = configIn(home.resolve(".svc"), "https://home.example.com");
        LoadedConfig loaded = load(null, Map.of());
        assertEquals(Optional.of(file), loaded.source());
        assertEquals("https://home.example.com", loaded.config().serverUrl());
    }

    @Test
    void workingDirectoryBeatsHomeAndSystemAndTheOthersAreNamedInWarnings() {
        Path systemFile = configIn(system, "https://system.example.com");
        Path homeFile = configIn(home.resolve(".svc"), "https://home.example.com");
        Path file = configIn(work, "https://work.example.com");
        LoadedConfig loaded = load(null, Map.of());
        assertEquals(Optional.of(file), loaded.source());
        assertEquals("https://work.example.com", loaded.config().serverUrl());
        assertEquals(2, loaded.warnings().size(), loaded.warnings().toString());
        assertTrue(loaded.warnings().get(0).startsWith(homeFile + " is not read"), loaded.warnings().toString());
        assertTrue(loaded.warnings().get(1).startsWith(systemFile + " is not read"), loaded.warnings().toString());
    }

    @Test
    void svcConfigVariableBeatsTheSearch() {
        configIn(work, "https://work.example.com");
        Path file = configIn(root.resolve("elsewhere"), "https://env.example.com");
        LoadedConfig loaded = load(null, Map.of("SVC_CONFIG", file.toString()));
        assertEquals(Optional.of(file), loaded.source());
        assertEquals("https://env.example.com", loaded.config().serverUrl());
    }

    @Test
    void explicitPathBeatsSvcConfig() {
        Path envFile = configIn(root.resolve("from-env"), "https://env.example.com");
        Path file = configIn(root.resolve("from-flag"), "https://flag.example.com");
        LoadedConfig loaded = load(file, Map.of("SVC_CONFIG", envFile.toString()));
        assertEquals(Optional.of(file), loaded.source());
        assertEquals("https://flag.example.com", loaded.config().serverUrl());
    }

    @Test
    void relativeExplicitPathIsRelativeToTheWorkingDirectory() {
        Path file = configIn(work.resolve("conf"), "https://relative.example.com");
        LoadedConfig loaded = load(Path.of("conf/config.yaml"), Map.of());
        assertEquals(Optional.of(file), loaded.source());
    }

    @Test
    void explicitPathThatDoesNotExistIsAnError() {
        configIn(work, "https://work.example.com");
        LoadedConfig loaded = load(Path.of("missing.yaml"), Map.of());
        assertFalse(loaded.valid());
        assertEquals(List.of("--config: " + work.resolve("missing.yaml") + " does not exist"), ConfigFixture.messages(loaded));
        assertEquals(Optional.empty(), loaded.source(), "a named file that is missing must not fall back to the search");
        assertEquals("http://127.0.0.1:8080", loaded.config().serverUrl());
    }

    @Test
    void svcConfigNamingAMissingFileIsAnError() {
        LoadedConfig loaded = load(null, Map.of("SVC_CONFIG", root.resolve("nope.yaml").toString()));
        assertEquals(List.of("SVC_CONFIG: " + root.resolve("nope.yaml") + " does not exist"), ConfigFixture.messages(loaded));
    }

    @Test
    void explicitPathNamingADirectoryIsAnError() {
        LoadedConfig loaded = load(root, Map.of());
        assertEquals(List.of("--config: " + root + " is not a regular file"), ConfigFixture.messages(loaded));
    }

    @Test
    void emptySvcConfigMeansSearchAsUsual() {
        Path file = configIn(work, "https://work.example.com");
        LoadedConfig loaded = load(null, Map.of("SVC_CONFIG", ""));
        assertEquals(Optional.of(file), loaded.source());
    }

    @Test
    void requestWithoutSystemDirSearchesEtcSvc() {
        ConfigRequest request = new ConfigRequest(null, Map.of(), work, home);
        assertEquals(Path.of("/etc/svc"), request.systemDir());
        assertEquals(List.of(work.resolve("config.yaml"), home.resolve(".svc/config.yaml"), Path.of("/etc/svc/config.yaml")),
                ConfigFileLocator.candidates(request));
    }

    @Test
    void noHomeDirectoryIsSkipped() {
        Path file = configIn(system, "https://system.example.com");
        LoadedConfig loaded = ConfigLoader.load(new ConfigRequest(null, Map.of(), work, null, system));
        assertEquals(Optional.of(file), loaded.source());
    }
}
