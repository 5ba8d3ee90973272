package io.meshcontrol.cli;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.api.LocalAccess;
import io.meshcontrol.api.MeshClient;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** {@code svc serve} as a separate process (for tests that signal or kill it), and its local client. */
final class ServeProcess {

    private ServeProcess() {
    }

    /**
     * Starts {@code svc serve -c config} in {@code folder}, its output going to {@code log}.
     *
     * @param wrapper a command that runs the JVM, e.g. {@code nohup}; none when empty
     */
    static Process start(Path folder, Path config, Path log, String... wrapper) throws IOException {
        return start(folder, config, log, Map.of(), wrapper);
    }

    /** Like {@link #start(Path, Path, Path, String...)} with {@code env} added to the process's environment. */
    static Process start(Path folder, Path config, Path log, Map<String, String> env, String... wrapper)
            throws IOException {
        List<String> command = new ArrayList<>(List.of(wrapper));
        command.addAll(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"),
                Svc.class.getName(), "serve", "-c", config.toString()));
        ProcessBuilder builder = new ProcessBuilder(command).directory(folder.toFile()).redirectErrorStream(true)
                .redirectOutput(log.toFile());
        builder.environment().putAll(env);
        return builder.start();
    }

    /**
     * A client of the started server, once it has written its local credential (at most 60 s): a credential left
     * by a server killed before does not count.
     */
    static MeshClient awaitClient(Path credential, Process process) throws Exception {
        Instant deadline = Instant.now().plus(Duration.ofSeconds(60));
        while (Instant.now().isBefore(deadline)) {
            assertTrue(process.isAlive(), "svc serve exited early");
            LocalAccess access = Files.exists(credential) ? LocalAccess.read(credential) : null;
            if (access != null && Long.valueOf(process.pid()).equals(access.pid())) {
                return new MeshClient(URI.create(access.url()), access.token(), false, Svc.version(), w -> { });
            }
            Thread.sleep(100);
        }
        throw new AssertionError("svc serve did not start within 60 s");
    }

    /** What the server has logged so far; empty before its log file exists. */
    static String log(Path log) {
        try {
            return Files.readString(log);
        } catch (IOException e) {
            return "";
        }
    }
}
