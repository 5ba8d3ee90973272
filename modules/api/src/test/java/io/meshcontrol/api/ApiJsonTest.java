package io.meshcontrol.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.core.JacksonException;

class ApiJsonTest {

    private static final ApiKeyView KEY = new ApiKeyView("k1CNTRL", "abc", "ci", null, List.of("users:read"),
            Instant.parse("2026-01-01T00:00:00Z"), Instant.parse("2026-04-01T00:00:00Z"), false, null);

    @Test
    void timesAreIso8601AndAbsentFieldsAreLeftOut() {
        String json = ApiJson.mapper(true).writeValueAsString(KEY);
        assertTrue(json.contains("\"createdAt\":\"2026-01-01T00:00:00Z\""), json);
        assertFalse(json.contains("user\""), json);
        assertFalse(json.contains("lastUsedAt"), json);
        assertEquals(KEY, ApiJson.mapper(true).readValue(json, ApiKeyView.class));
    }

    @Test
    void clientsIgnoreFieldsANewerServerAddsWhileTheServerRefusesThem() {
        String newer = "{\"version\":\"1.2.0\",\"java\":\"21\",\"addedLater\":true}";
        assertEquals(new VersionInfo("1.2.0", "21"), ApiJson.mapper(false).readValue(newer, VersionInfo.class));
        assertThrows(JacksonException.class, () -> ApiJson.mapper(true).readValue(newer, VersionInfo.class));
    }
}
