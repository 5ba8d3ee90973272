package io.meshcontrol.core.testing;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/** A UTC clock that stands still until the test moves it. */
public final class MovableClock extends Clock {

    private volatile Instant now;

    public MovableClock(Instant start) {
        this.now = start;
    }

    /** The first instant of 2026, where test networks start. */
    public static MovableClock startingAt2026() {
        return new MovableClock(Instant.parse("2026-01-01T00:00:00Z"));
    }

    public void advance(Duration duration) {
        now = now.plus(duration);
    }

    @Override
    public Instant instant() {
        return now;
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
