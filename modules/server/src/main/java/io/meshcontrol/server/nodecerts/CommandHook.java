package io.meshcontrol.server.nodecerts;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A program that changes the zone, for any DNS service with an API ({@code dns_provider: command}): run as
 * {@code <path> present <name> <value>} and {@code <path> cleanup <name> <value>} (the name without a trailing dot),
 * with no shell in between, it exits 0 once the change is made. Anything else, or running longer than the timeout
 * (it is then killed), is a failure whose message ends with the program's last line of output.
 */
public final class CommandHook implements DnsProvider {

    private static final int MAX_OUTPUT = 4096;

    private final Path program;
    private final Duration timeout;

    public CommandHook(Path program, Duration timeout) {
        this.program = program;
        this.timeout = timeout;
    }

    @Override
    public void publish(TxtRecord record) throws IOException, InterruptedException {
        run("present", record);
    }

    @Override
    public void remove(TxtRecord record) throws IOException, InterruptedException {
        run("cleanup", record);
    }

    private void run(String action, TxtRecord record) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(List.of(program.toString(), action, record.name(), record.value()))
                .redirectErrorStream(true)
                .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()))
                .start();
        // Read in the background so that a chatty program cannot block on a full pipe.
        AtomicReference<String> output = new AtomicReference<>("");
        Thread reader = Thread.ofVirtual().start(() -> {
            try (var in = process.getInputStream()) {
                output.set(new String(in.readNBytes(MAX_OUTPUT), StandardCharsets.UTF_8));
                in.transferTo(java.io.OutputStream.nullOutputStream());
            } catch (IOException e) {
                // the process went away; what was read is kept
            }
        });
        try {
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                process.descendants().forEach(ProcessHandle::destroyForcibly);
                process.destroyForcibly();
                throw new IOException(program + " " + action + " " + record.name() + " did not finish within "
                        + timeout + " (https_certificates.command.timeout) and was killed");
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            throw e;
        }
        reader.join(Duration.ofSeconds(1));
        int exit = process.exitValue();
        if (exit != 0) {
            throw new IOException(program + " " + action + " " + record.name() + " exited with " + exit
                    + lastLine(output.get()));
        }
    }

    private static String lastLine(String output) {
        String[] lines = output.strip().split("\n");
        String last = lines[lines.length - 1].strip();
        return last.isEmpty() ? "" : ": " + last;
    }
}
