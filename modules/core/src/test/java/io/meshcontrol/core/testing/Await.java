package io.meshcontrol.core.testing;

import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * Waits for a condition instead of sleeping a fixed time and asserting after: it returns as soon as the condition
 * holds, so a fast machine does not wait and a slow one is given the whole timeout (docs/development.md, "A fast
 * suite"). The timeout is a bound for a hung test, never a figure under test.
 */
public final class Await {

    /** Long enough for a loaded 2-core CI machine; a passing test returns long before it. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(30);

    private static final long POLL_MILLIS = 10;

    private Await() {
    }

    /** Waits until {@code condition} holds, at most {@link #DEFAULT_TIMEOUT}; fails naming {@code what}. */
    public static void until(String what, BooleanSupplier condition) throws InterruptedException {
        until(what, DEFAULT_TIMEOUT, condition, () -> "");
    }

    /** Like {@link #until(String, BooleanSupplier)}, adding {@code state} (read once, on failure) to the message. */
    public static void until(String what, Duration timeout, BooleanSupplier condition, Supplier<String> state)
            throws InterruptedException {
        until(what, timeout, Duration.ofMillis(POLL_MILLIS), condition, state);
    }

    /**
     * Like {@link #until(String, Duration, BooleanSupplier, Supplier)}, checking only every {@code poll}: for a
     * condition that costs a process to check (a client's CLI).
     */
    public static void until(String what, Duration timeout, Duration poll, BooleanSupplier condition,
            Supplier<String> state) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                String detail = state.get();
                throw new AssertionError(what + ": not within " + timeout.toSeconds() + " s"
                        + (detail.isEmpty() ? "" : "; " + detail));
            }
            Thread.sleep(poll.toMillis());
        }
    }
}
