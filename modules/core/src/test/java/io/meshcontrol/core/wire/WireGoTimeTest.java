package io.meshcontrol.core.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Times as Go's time.Time marshals them (RFC3339Nano) and parses them (RFC 3339). */
class WireGoTimeTest {

    @ParameterizedTest(name = "{0}")
    @CsvSource({
        "0001-01-01T00:00:00Z,            0001-01-01T00:00:00Z",
        "1970-01-01T00:02:03Z,            1970-01-01T00:02:03Z",
        "2026-01-02T03:04:05.100Z,        2026-01-02T03:04:05.1Z",
        "2026-01-02T03:04:05.123456789Z,  2026-01-02T03:04:05.123456789Z",
        "2026-01-02T03:04:05.000001Z,     2026-01-02T03:04:05.000001Z",
    })
    void formatsLikeRfc3339Nano(String instant, String go) {
        assertEquals(go, GoTime.format(Instant.parse(instant)));
    }

    @Test
    void zeroIsGosZeroTime() {
        assertEquals("0001-01-01T00:00:00Z", GoTime.format(GoTime.ZERO));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({
        "2026-01-02T05:04:05+02:00,     2026-01-02T03:04:05Z",
        "2026-01-02T03:04:05.5-00:30,   2026-01-02T03:34:05.5Z",
        "2026-01-02T03:04:05.123456789Z, 2026-01-02T03:04:05.123456789Z",
    })
    void parsesAnyOffset(String go, String instant) {
        assertEquals(Instant.parse(instant), GoTime.parse(go));
    }

    @Test
    void refusesYearsGoCannotWrite() {
        assertThrows(IllegalArgumentException.class, () -> GoTime.format(Instant.parse("+10000-01-01T00:00:00Z")));
        assertThrows(IllegalArgumentException.class, () -> GoTime.format(GoTime.ZERO.minusNanos(1)));
    }

    @Test
    void refusesTextThatIsNotRfc3339() {
        assertThrows(IllegalArgumentException.class, () -> GoTime.parse("2026-01-02 03:04:05"));
        assertThrows(IllegalArgumentException.class, () -> GoTime.parse("2026-01-02T03:04:05"));
    }
}
