package io.meshcontrol.interop;

import java.io.IOException;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * Every process the harness starts goes through here, so that a JVM shutdown hook can kill whatever a
 * test failed to stop (a crashed test, Ctrl-C, surefire's fork timeout). Only SIGKILL of the JVM itself
 * escapes it.
 */
final class ChildProcesses {

    private static final Set<Process> LIVE = ConcurrentHashMap.newKeySet();

    static {
        Runtime.getRuntime().addShutdownHook(Thread.ofPlatform().name("interop-kill-children").unstarted(() -> {
            for (Process process : LIVE) {
                process.descendants().forEach(ProcessHandle::destroyForcibly);
                process.destroyForcibly();
            }
        }));
    }

    private ChildProcesses() {
    }

    static Process start(ProcessBuilder builder) throws IOException {
        Process process = builder.start();
        LIVE.add(process);
        process.onExit().thenRun(() -> LIVE.remove(process));
        return process;
    }

    /**
     * Asks the process (and anything it started) to exit with SIGTERM, then SIGKILLs what is left after
     * {@code grace}; returns once it is gone. Returns its exit code.
     */
    static int stop(Process process, Duration grace) {
        var descendants = process.descendants().toList();
        process.destroy();
        try {
            if (!process.waitFor(grace.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                process.waitFor();
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
        descendants.forEach(ProcessHandle::destroyForcibly);
        LIVE.remove(process);
        return process.isAlive() ? -1 : process.exitValue();
    }

    /** How many started processes are still running (for tests of the harness itself). */
    static int liveCount() {
        LIVE.removeIf(p -> !p.isAlive());
        return LIVE.size();
    }
}
