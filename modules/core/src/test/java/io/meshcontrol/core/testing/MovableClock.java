package io.meshcontrol.core.testing;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/**
 * A UTC clock the test moves forward: either standing still until moved ({@link #startingAt2026()}), or running with
 * the system clock ({@link #running()}) for tests with real clients, where only a timeout needs to pass at once.
 */
public final class MovableClock extends Clock {

    private final Clock base;
    private volatile Duration moved = Duration.ZERO;

    private MovableClock(Clock base) {
        this.base = base;
    }

    /** Stands at the first instant of 2026, where test networks start, until the test moves it. */
    public static MovableClock startingAt2026() {
        return new MovableClock(Clock.fixed(Instant.parse("2026-01-01T00:00:00Z"), ZoneOffset.UTC));
    }

    /** The system clock plus however far the test has moved it. */
    public static MovableClock running() {
        return new MovableClock(Clock.systemUTC());
    }

    public synchronized void advance(Duration duration) {
        moved = moved.plus(duration);
    }

    @Override
    public Instant instant() {
        return base.instant().plus(moved);
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        return this;
    }
}
