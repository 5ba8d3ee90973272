package io.meshcontrol.core;

import java.lang.System.Logger.Level;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Warnings that a remote peer can cause (a malformed handshake, a broken frame, a refused connection), logged at a
 * bounded rate so that a peer cannot fill the disk or drown the log: per kind, the first {@code perInterval} in each
 * interval are logged, the last of them saying that more will be counted; the rest are counted, and the next
 * warning of that kind after the interval is preceded by one line "suppressed K similar ...".
 *
 * <p>A kind is a fixed word from the code ("handshake", "frame"), never text from the peer, so the table stays small.
 */
public final class RateLimitedLog {

    /** What the server's listeners use: ten lines per kind a minute. */
    public static final int DEFAULT_PER_INTERVAL = 10;
    public static final Duration DEFAULT_INTERVAL = Duration.ofMinutes(1);

    private final System.Logger logger;
    private final int perInterval;
    private final Duration interval;
    private final Clock clock;
    private final Map<String, Window> windows = new HashMap<>();

    public RateLimitedLog(System.Logger logger, int perInterval, Duration interval, Clock clock) {
        if (perInterval < 1 || interval.isNegative() || interval.isZero()) {
            throw new IllegalArgumentException("a rate-limited log needs at least one line per positive interval");
        }
        this.logger = logger;
        this.perInterval = perInterval;
        this.interval = interval;
        this.clock = clock;
    }

    /** {@value #DEFAULT_PER_INTERVAL} lines per kind a minute, on the system clock. */
    public RateLimitedLog(System.Logger logger) {
        this(logger, DEFAULT_PER_INTERVAL, DEFAULT_INTERVAL, Clock.systemUTC());
    }

    /** Logs {@code message} at WARNING unless {@code kind} has had its share of this interval. */
    public void warn(String kind, Supplier<String> message) {
        String summary = null;
        boolean last;
        synchronized (this) {
            Instant now = clock.instant();
            Window window = windows.get(kind);
            if (window == null || !now.isBefore(window.start.plus(interval))) {
                if (window != null && window.suppressed > 0) {
                    summary = "suppressed " + window.suppressed + " similar " + kind + " warnings in the "
                            + GoDuration.format(interval) + " after " + window.start;
                }
                window = new Window(now);
                windows.put(kind, window);
            }
            if (window.logged == perInterval) {
                window.suppressed++;
                return;
            }
            window.logged++;
            last = window.logged == perInterval;
        }
        if (summary != null) {
            logger.log(Level.WARNING, summary);
        }
        logger.log(Level.WARNING, message.get() + (last ? " (further " + kind + " warnings in this "
                + GoDuration.format(interval) + " are counted, not logged)" : ""));
    }

    private static final class Window {
        final Instant start;
        int logged;
        long suppressed;

        Window(Instant start) {
            this.start = start;
        }
    }
}
