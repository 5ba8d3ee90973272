package io.meshcontrol.cli;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Map;

/** What a command reads from its surroundings; injectable so that tests run the real commands in-process. */
public record CliContext(PrintStream out, PrintStream err, Map<String, String> env, Path workingDir, Path homeDir) {

    public static CliContext fromSystem() {
        return new CliContext(System.out, System.err, System.getenv(), Path.of("").toAbsolutePath(),
                Path.of(System.getProperty("user.home")));
    }
}
