package io.meshcontrol.core.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The Go programs under {@code interop/} that check our side against the vendor's own libraries: found from
 * the working directory upwards, built once per test into a folder, and read back as {@code key value}
 * report lines. The binary is run directly, not through {@code go run}, so that destroying the process really
 * stops it.
 */
public final class GoCheckPrograms {

    private static final long BUILD_MINUTES = 10;

    private GoCheckPrograms() {
    }

    /** Builds {@code interop/<name>} into {@code folder}; fails the test with the build output when it fails. */
    public static Path build(String name, Path folder) throws IOException, InterruptedException {
        return compile(name, folder.resolve(name), "build");
    }

    /**
     * Compiles the Go tests of {@code interop/<name>} into one test binary in {@code folder} ({@code go test -c}),
     * for modules whose checks are Go tests; run it with {@code -test.v}.
     */
    public static Path buildTests(String name, Path folder) throws IOException, InterruptedException {
        return compile(name, folder.resolve(name + ".test"), "test", "-c");
    }

    private static Path compile(String name, Path binary, String... goCommand) throws IOException, InterruptedException {
        Path log = binary.resolveSibling(name + "-build.log");
        List<String> command = new ArrayList<>(List.of("go"));
        command.addAll(List.of(goCommand));
        command.addAll(List.of("-o", binary.toString(), "."));
        Process build = new ProcessBuilder(command)
                .directory(locate(name).toFile())
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        if (!build.waitFor(BUILD_MINUTES, TimeUnit.MINUTES)) {
            build.destroyForcibly();
            fail("go build of interop/" + name + " did not finish within " + BUILD_MINUTES + " minutes");
        }
        assertEquals(0, build.exitValue(), "go build of interop/" + name + " failed:\n" + Files.readString(log));
        return binary;
    }

    /** Report lines {@code key value...} as a map (later keys win). */
    public static Map<String, String> report(String lines) {
        Map<String, String> report = new HashMap<>();
        for (String line : lines.split("\n")) {
            int space = line.indexOf(' ');
            if (space > 0) {
                report.put(line.substring(0, space), line.substring(space + 1).strip());
            }
        }
        return report;
    }

    private static Path locate(String name) {
        for (Path directory = Path.of("").toAbsolutePath(); directory != null; directory = directory.getParent()) {
            Path candidate = directory.resolve("interop").resolve(name);
            if (Files.isRegularFile(candidate.resolve("go.mod"))) {
                return candidate;
            }
        }
        return fail("interop/" + name + " not found above " + Path.of("").toAbsolutePath());
    }
}
