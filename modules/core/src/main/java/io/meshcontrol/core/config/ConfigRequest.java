package io.meshcontrol.core.config;

import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;

/**
 * What {@link ConfigLoader#load} needs from the outside world, passed in so tests control all of it.
 *
 * @param explicitPath the {@code -c}/{@code --config} argument, or null; relative to {@code workingDir}
 * @param env          the environment ({@code SVC_*} overrides and {@code SVC_CONFIG})
 * @param workingDir   searched for {@code config.yaml}; relative paths in the configuration are resolved against it
 * @param homeDir      {@code $HOME}, searched for {@code .svc/config.yaml}; null when there is none
 * @param systemDir    the system-wide directory, {@code /etc/svc} outside tests
 */
public record ConfigRequest(Path explicitPath, Map<String, String> env, Path workingDir, Path homeDir, Path systemDir) {

    /** The system-wide configuration directory. */
    public static final Path SYSTEM_DIR = Path.of("/etc/svc");

    public ConfigRequest {
        env = Map.copyOf(env);
        workingDir = workingDir.toAbsolutePath().normalize();
        Objects.requireNonNull(systemDir);
    }

    /** A request that searches the real system directory {@code /etc/svc}. */
    public ConfigRequest(Path explicitPath, Map<String, String> env, Path workingDir, Path homeDir) {
        this(explicitPath, env, workingDir, homeDir, SYSTEM_DIR);
    }

    /**
     * The process's own environment, working directory and home ({@code $HOME}, else {@code user.home}).
     *
     * @param explicitPath the {@code -c}/{@code --config} argument, or null
     */
    public static ConfigRequest fromSystem(Path explicitPath) {
        Map<String, String> env = System.getenv();
        String home = env.getOrDefault("HOME", "");
        if (home.isEmpty()) {
            home = System.getProperty("user.home");
        }
        return new ConfigRequest(explicitPath, env, Path.of("").toAbsolutePath(), home == null ? null : Path.of(home));
    }
}
