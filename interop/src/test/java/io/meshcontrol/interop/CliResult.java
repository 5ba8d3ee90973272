package io.meshcontrol.interop;

import java.time.Duration;
import java.util.List;

/**
 * What one {@code tailscale} CLI run produced.
 *
 * @param command  the full command line
 * @param exitCode the exit code; -1 when it was killed after {@code timedOut}
 * @param stdout   standard output
 * @param stderr   standard error (where {@code up} prints the AuthURL and most errors go)
 * @param timedOut whether the harness killed it for running too long
 * @param took     how long it ran
 */
public record CliResult(List<String> command, int exitCode, String stdout, String stderr, boolean timedOut,
        Duration took) {

    public boolean ok() {
        return exitCode == 0 && !timedOut;
    }

    /** Standard output followed by standard error, for matching and messages. */
    public String output() {
        return stderr.isEmpty() ? stdout : stdout.isEmpty() ? stderr : stdout + "\n" + stderr;
    }

    /** Returns this result, or throws an AssertionError naming the command and its output if it failed. */
    public CliResult requireOk() {
        if (!ok()) {
            throw new AssertionError(describe());
        }
        return this;
    }

    public String describe() {
        String outcome = timedOut ? "timed out after " + took.toSeconds() + "s" : "exit " + exitCode;
        return "$ " + String.join(" ", command) + "  (" + outcome + ")\n" + output().strip();
    }
}
