package io.meshcontrol.core.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Small MaxMind-format location databases for tests, written by MaxMind's own writer ({@code interop/mmdbwrite},
 * Go, built once per test run): {@code GeoDatabases.write(file, "81.2.69.0/24=GB/London", "2a02:ff00::/32=DE")}.
 * Each entry is {@code NETWORK=COUNTRY[/CITY]}, in the GeoLite2-City layout.
 */
public final class GeoDatabases {

    private static Path writer;

    private GeoDatabases() {
    }

    public static Path write(Path file, String... entries) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(writer().toString(), file.toString()));
        command.addAll(List.of(entries));
        Path log = Files.createTempFile("mmdbwrite", ".log");
        Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        if (!process.waitFor(1, TimeUnit.MINUTES)) {
            process.destroyForcibly();
        }
        assertEquals(0, process.exitValue(), "mmdbwrite failed: " + Files.readString(log));
        Files.delete(log);
        return file;
    }

    private static synchronized Path writer() throws IOException, InterruptedException {
        if (writer == null) {
            Path folder = Files.createTempDirectory("mmdbwrite");
            folder.toFile().deleteOnExit();
            writer = GoCheckPrograms.build("mmdbwrite", folder);
        }
        return writer;
    }
}
