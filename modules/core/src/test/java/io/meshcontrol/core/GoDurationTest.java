package io.meshcontrol.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class GoDurationTest {

    @ParameterizedTest(name = "{0} is {1} ms")
    @CsvSource({
            "720h,      2592000000",
            "1h30m,     5400000",
            "90s,       90000",
            "250ms,     250",
            "0s,        0",
            "0,         0",
            "-0,        0",
            "1.5h,      5400000",
            "+5s,       5000",
            "-1.5h,     -5400000",
            ".5s,       500",
            "5.s,       5000",
            "1h0m0.5s,  3600500",
            "2h45m30s,  9930000",
            "1m1s1ms,   61001",
    })
    void parsesGoSyntax(String text, long millis) {
        assertEquals(Duration.ofMillis(millis), GoDuration.parse(text));
    }

    @ParameterizedTest(name = "{0} is {1} ns")
    @CsvSource({
            "1ns,     1",
            "1.5ns,   1",
            "300us,   300000",
            "300\u00b5s,   300000",
            "300\u03bcs,   300000",
            "1.5us,   1500",
    })
    void parsesSubMillisecondUnitsAndTruncatesLikeGo(String text, long nanos) {
        assertEquals(Duration.ofNanos(nanos), GoDuration.parse(text));
    }

    @ParameterizedTest(name = "\"{0}\" is refused")
    @ValueSource(strings = {"", "5", "h", "1d", "180d", "1 h", "1hh", ".s", "-", "1h-5m", "5s ", "9999999999h", "one hour"})
    void refusesWhatGoRefuses(String text) {
        assertThrows(IllegalArgumentException.class, () -> GoDuration.parse(text));
    }

    @ParameterizedTest(name = "{0} ms formats as {1}")
    @CsvSource({
            "0,          0s",
            "5400000,    1h30m",
            "86400000,   24h",
            "2592000000, 720h",
            "1800000,    30m",
            "90000,      1m30s",
            "61000,      1m1s",
            "1500,       1.5s",
            "250,        250ms",
            "3600500,    1h0.5s",
            "-5400000,   -1h30m",
    })
    void formatsShortestGoText(long millis, String text) {
        assertEquals(text, GoDuration.format(Duration.ofMillis(millis)));
    }

    @ParameterizedTest(name = "{0} s is {1} in Go's String()")
    @CsvSource({
            "0,       0s",
            "1,       1s",
            "60,      1m0s",
            "3600,    1h0m0s",
            "604801,  168h0m1s",
            "-60,     -1m0s",
    })
    void goStringWritesWhatGoPrints(long seconds, String text) {
        assertEquals(text, GoDuration.goString(Duration.ofSeconds(seconds)));
    }

    @org.junit.jupiter.api.Test
    void goStringKeepsFractionsOfASecond() {
        assertEquals("1.5s", GoDuration.goString(Duration.ofMillis(1500)));
        assertEquals("-1.25s", GoDuration.goString(Duration.ofMillis(-1250)));
    }

    @ParameterizedTest(name = "{0} survives a round trip")
    @ValueSource(strings = {"1ns", "1500ns", "1.000001ms", "4320h", "1h1m1.000000001s", "2562047h47m16.854775807s"})
    void formatParsesBackToTheSameDuration(String text) {
        Duration duration = GoDuration.parse(text);
        assertEquals(duration, GoDuration.parse(GoDuration.format(duration)));
    }

    @org.junit.jupiter.api.Test
    void dayUnitIsRefusedWithAHintToUseHours() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> GoDuration.parse("180d"));
        assertTrue(e.getMessage().contains("720h"), e.getMessage());
    }
}
