package io.meshcontrol.cli;

import io.meshcontrol.server.testing.TestServer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * Runs the real svc command line in-process with its own streams and environment. Shared with the interop tests
 * (cli's test-jar); {@link ServerWithCli} pairs it with a server.
 */
public record CliRun(int exitCode, String out, String err) {

    public static CliRun run(Path workingDir, Map<String, String> env, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        Map<String, String> environment = new HashMap<>(env);
        CliContext context = new CliContext(new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), environment, workingDir, workingDir.resolve("home"));
        int code = Svc.run(context, args);
        return new CliRun(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    /** Runs {@code svc -c <config> args...}: how the tests reach a server through its local credential. */
    public static CliRun withConfig(Path workingDir, Path config, String... args) {
        String[] withConfig = new String[args.length + 2];
        withConfig[0] = "-c";
        withConfig[1] = config.toString();
        System.arraycopy(args, 0, withConfig, 2, args.length);
        return run(workingDir, Map.of(), withConfig);
    }

    /** Writes {@code folder/config.yaml} pointing the CLI at {@code server}'s local credential, and returns it. */
    public static Path configFor(TestServer server, Path folder) throws IOException {
        return Files.writeString(folder.resolve("config.yaml"),
                "cli:\n  local_credential_path: " + server.localCredentialPath() + "\n");
    }

    /** The first line of stdout, trimmed: the secret printed by apikeys create/rotate. */
    public String firstLine() {
        return out.lines().findFirst().orElse("").trim();
    }

    @Override
    public String toString() {
        return "exit " + exitCode + "\n--- out\n" + out + "--- err\n" + err;
    }
}
