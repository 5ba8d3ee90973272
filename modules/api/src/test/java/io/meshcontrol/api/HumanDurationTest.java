package io.meshcontrol.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

class HumanDurationTest {

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "30d|720h", "2w|336h", "90 days|2160h", "1 week|168h", "12h|12h", "1h30m|1h30m", "1.5h|1h30m",
            "90s|1m30s", "1 day 12 hours|36h", "1 day, 12 hours|36h", "1 day and 12 hours|36h", "2 Weeks|336h",
            "250ms|250ms", "45 minutes|45m", "0|0s", "1w2d|216h"})
    void readsWhatPeopleTypeIntoGoSyntax(String typed, String wire) {
        assertEquals(wire, HumanDuration.wire(typed));
    }

    @ParameterizedTest
    @ValueSource(strings = {"abc", "12", "1 fortnight", "d", "-5h", "1h 30"})
    void refusesWithAnExample(String typed) {
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> HumanDuration.parse(typed));
        assertTrue(refused.getMessage().contains("30d"), refused.getMessage());
    }

    @Test
    void monthsAndYearsAreRefusedWithAHint() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> HumanDuration.parse("1mo")).getMessage()
                .contains("use days"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> HumanDuration.parse("1y")).getMessage()
                .contains("use days"));
    }

    @Test
    void nothingTypedIsNoField() {
        assertNull(HumanDuration.wire(" "));
        assertNull(HumanDuration.wire(null));
    }

    @Test
    void describesForPeople() {
        assertEquals("90 days", HumanDuration.describe(Duration.ofDays(90)));
        assertEquals("1 day", HumanDuration.describe(Duration.ofDays(1)));
        assertEquals("2 weeks", HumanDuration.describe(Duration.ofDays(14)));
        assertEquals("12 hours", HumanDuration.describe(Duration.ofHours(12)));
        assertEquals("1h30m", HumanDuration.describe(Duration.ofMinutes(90)));
    }

    @Test
    void theDefaultsOfANewPreAuthKeyFillOnlyWhatIsNotGiven() {
        PreAuthKeyRequest plain = NewPreAuthKeyDefaults.STANDARD.request("odin", null, null, null, null, null, null);
        assertEquals(new PreAuthKeyRequest("odin", null, false, false, false, null, "24h"), plain);
        PreAuthKeyRequest chosen = NewPreAuthKeyDefaults.STANDARD.request(null, java.util.List.of("tag:a"), true, null,
                true, "x", "30d");
        assertEquals(new PreAuthKeyRequest(null, java.util.List.of("tag:a"), true, false, true, "x", "720h"), chosen);
    }
}
