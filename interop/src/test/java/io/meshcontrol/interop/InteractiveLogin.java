package io.meshcontrol.interop;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A {@code tailscale up} without an auth key, still running: the CLI prints "To authenticate, visit:" and the
 * AuthURL control sent, then waits until the login completes (or fails, or it is closed). Started by
 * {@link TailscaleNode#upAsync}; {@link TailscaleNode#cliAsync} does the same for any command that prints a URL to
 * follow and waits (a {@code tailscale ssh} session held for a check).
 */
public final class InteractiveLogin implements AutoCloseable {

    /** The URL sits alone on its line, indented by a tab (cmd/tailscale/cli/up.go). */
    private static final Pattern URL_LINE = Pattern.compile("^\\s*(https?://\\S+)\\s*$");

    private final Pattern urlLine;
    private final Process process;
    private final List<String> command;
    private final Consumer<CliResult> transcript;
    private final Instant started = Instant.now();
    private final StringBuffer stdout = new StringBuffer();
    private final StringBuffer stderr = new StringBuffer();
    private final CompletableFuture<URI> authUrl = new CompletableFuture<>();
    private final CompletableFuture<CliResult> result = new CompletableFuture<>();

    InteractiveLogin(Process process, List<String> command, Consumer<CliResult> transcript) {
        this(URL_LINE, process, command, transcript);
    }

    /** @param urlLine finds the URL (its first group) in a line of output */
    InteractiveLogin(Pattern urlLine, Process process, List<String> command, Consumer<CliResult> transcript) {
        this.urlLine = urlLine;
        this.process = process;
        this.command = List.copyOf(command);
        this.transcript = transcript;
        CompletableFuture<Void> out = collect(process.getInputStream(), stdout);
        CompletableFuture<Void> err = collect(process.getErrorStream(), stderr);
        process.onExit().thenCompose(p -> CompletableFuture.allOf(out, err)).thenRun(this::finish);
    }

    /**
     * Waits for the AuthURL; throws an AssertionError with the CLI's output if it exits or {@code timeout}
     * passes first.
     */
    public URI awaitAuthUrl(Duration timeout) {
        try {
            return authUrl.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            throw new AssertionError("no AuthURL within " + timeout.toSeconds() + "s from " + describeSoFar());
        } catch (ExecutionException e) {
            throw new AssertionError(e.getCause().getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted waiting for the AuthURL", e);
        }
    }

    /**
     * Waits for {@code tailscale up} to exit (it does once the node is Running after the login was completed);
     * if {@code timeout} passes first it is killed and the result says timed out.
     */
    public CliResult await(Duration timeout) {
        try {
            return result.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            close();
            return new CliResult(command, -1, stdout.toString(), stderr.toString(), true,
                    Duration.between(started, Instant.now()));
        } catch (ExecutionException e) {
            throw new IllegalStateException(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted waiting for " + command, e);
        }
    }

    public boolean isDone() {
        return result.isDone();
    }

    /** Kills the CLI if it is still waiting (the daemon keeps its own login state). */
    @Override
    public void close() {
        if (process.isAlive()) {
            ChildProcesses.stop(process, Duration.ofSeconds(2));
        }
    }

    private void finish() {
        int exit = process.exitValue();
        CliResult done = new CliResult(command, exit, stdout.toString(), stderr.toString(), false,
                Duration.between(started, Instant.now()));
        authUrl.completeExceptionally(new IllegalStateException("the CLI exited without an AuthURL: "
                + done.describe()));
        transcript.accept(done);
        result.complete(done);
    }

    private String describeSoFar() {
        return "$ " + String.join(" ", command) + (process.isAlive() ? " (still running)" : " (exited)") + "\n"
                + (stdout + "\n" + stderr).strip();
    }

    private CompletableFuture<Void> collect(InputStream in, StringBuffer into) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        Thread.ofVirtual().start(() -> {
            try (BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
                for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                    into.append(line).append('\n');
                    Matcher url = urlLine.matcher(line);
                    if (url.find()) {
                        authUrl.complete(URI.create(url.group(1)));
                    }
                }
            } catch (IOException e) {
                into.append("(output unreadable: ").append(e).append(")\n");
            } finally {
                done.complete(null);
            }
        });
        return done;
    }
}
