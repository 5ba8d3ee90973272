package io.meshcontrol.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.core.testing.MovableClock;
import java.time.Duration;
import java.util.List;
import java.util.ResourceBundle;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

class RateLimitedLogTest {

    /** A logger that keeps its lines. */
    static final class Lines implements System.Logger {
        final List<String> lines = new CopyOnWriteArrayList<>();

        @Override
        public String getName() {
            return "test";
        }

        @Override
        public boolean isLoggable(Level level) {
            return true;
        }

        @Override
        public void log(Level level, ResourceBundle bundle, String message, Throwable thrown) {
            lines.add(level + " " + message);
        }

        @Override
        public void log(Level level, ResourceBundle bundle, String format, Object... params) {
            lines.add(level + " " + format);
        }
    }

    private final Lines logger = new Lines();
    private final MovableClock clock = MovableClock.startingAt2026();
    private final RateLimitedLog log = new RateLimitedLog(logger, 3, Duration.ofMinutes(1), clock);

    @Test
    void theFirstLinesOfAnIntervalAreLoggedAndTheRestCounted() {
        for (int i = 1; i <= 100; i++) {
            int n = i;
            log.warn("handshake", () -> "bad handshake " + n);
        }
        assertEquals(List.of("WARNING bad handshake 1", "WARNING bad handshake 2",
                "WARNING bad handshake 3 (further handshake warnings in this 1m are counted, not logged)"), logger.lines);

        clock.advance(Duration.ofSeconds(61));
        log.warn("handshake", () -> "bad handshake 101");
        assertEquals(5, logger.lines.size(), String.join("\n", logger.lines));
        assertEquals("WARNING suppressed 97 similar handshake warnings in the 1m after 2026-01-01T00:00:00Z",
                logger.lines.get(3));
        assertEquals("WARNING bad handshake 101", logger.lines.get(4));
    }

    @Test
    void kindsHaveTheirOwnShareAndQuietIntervalsSayNothing() {
        for (int i = 0; i < 5; i++) {
            log.warn("handshake", () -> "handshake");
            log.warn("frame", () -> "frame");
        }
        assertEquals(6, logger.lines.size());
        clock.advance(Duration.ofMinutes(5));
        log.warn("connection", () -> "connection");
        assertEquals("WARNING connection", logger.lines.getLast());
        assertTrue(logger.lines.stream().noneMatch(line -> line.contains("suppressed") && line.contains("connection")));
    }

    @Test
    void suppressedMessagesAreNotEvenBuilt() {
        for (int i = 0; i < 3; i++) {
            log.warn("frame", () -> "frame");
        }
        log.warn("frame", () -> {
            throw new AssertionError("built although suppressed");
        });
        assertEquals(3, logger.lines.size());
    }
}
