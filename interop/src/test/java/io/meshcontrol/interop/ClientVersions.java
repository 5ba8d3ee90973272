package io.meshcontrol.interop;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The Tailscale releases the interop tests run against, read from {@code interop/versions.env}: the file
 * interop/install-clients.sh sources, so the script and the tests can never disagree about versions.
 */
public final class ClientVersions {

    /** Relative to the repository root. */
    static final String VERSIONS_FILE = "interop/versions.env";

    private static final List<ClientVersion> PINNED = load(repositoryRoot().resolve(VERSIONS_FILE));

    private ClientVersions() {
    }

    /** Every pinned version, in the file's order (newest first); the source for parameterized tests. */
    public static List<ClientVersion> pinned() {
        return PINNED;
    }

    /** For {@code @MethodSource("io.meshcontrol.interop.ClientVersions#all")}. */
    public static Stream<ClientVersion> all() {
        return PINNED.stream();
    }

    public static ClientVersion newest() {
        return byPin("NEWEST");
    }

    public static ClientVersion oldest() {
        return byPin("OLDEST");
    }

    public static ClientVersion byPin(String pin) {
        return PINNED.stream().filter(v -> v.pin().equals(pin)).findFirst()
                .orElseThrow(() -> new IllegalStateException("no pin " + pin + " in " + VERSIONS_FILE));
    }

    /**
     * The repository root: system property {@code svc.repo.dir} (the interop pom sets it), else the nearest
     * directory at or above the working directory that holds interop/versions.env.
     */
    public static Path repositoryRoot() {
        String configured = System.getProperty("svc.repo.dir");
        if (configured != null && !configured.isBlank()) {
            return Path.of(configured).toAbsolutePath().normalize();
        }
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            if (Files.isRegularFile(dir.resolve(VERSIONS_FILE))) {
                return dir;
            }
        }
        throw new IllegalStateException("cannot find the repository root: no " + VERSIONS_FILE
                + " at or above " + Path.of("").toAbsolutePath() + " (set -Dsvc.repo.dir)");
    }

    /** Parses the KEY=value lines; any pin listed in TS_PINS without all three settings is an error. */
    static List<ClientVersion> load(Path file) {
        Map<String, String> settings = new LinkedHashMap<>();
        try {
            for (String line : Files.readAllLines(file)) {
                String trimmed = line.strip();
                if (trimmed.isEmpty() || trimmed.startsWith("#")) {
                    continue;
                }
                int eq = trimmed.indexOf('=');
                if (eq <= 0) {
                    throw new IllegalStateException(file + ": not a KEY=value line: " + line);
                }
                settings.put(trimmed.substring(0, eq), trimmed.substring(eq + 1));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
        List<ClientVersion> versions = new ArrayList<>();
        for (String pin : required(settings, "TS_PINS", file).split(",")) {
            String prefix = "TS_" + pin.strip() + "_";
            versions.add(new ClientVersion(
                    pin.strip(),
                    required(settings, prefix + "VERSION", file),
                    Integer.parseInt(required(settings, prefix + "CAPVER", file)),
                    required(settings, prefix + "GOTOOLCHAIN", file)));
        }
        return List.copyOf(versions);
    }

    private static String required(Map<String, String> settings, String key, Path file) {
        String value = settings.get(key);
        if (value == null || value.isEmpty()) {
            throw new IllegalStateException(file + " lacks " + key);
        }
        return value;
    }
}
