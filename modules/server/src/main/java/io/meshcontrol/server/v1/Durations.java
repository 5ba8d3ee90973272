package io.meshcontrol.server.v1;

import io.meshcontrol.core.GoDuration;
import io.meshcontrol.core.MeshException;
import java.time.Duration;

/** Request fields holding Go-style durations ({@code 720h}); absent or blank means "not given". */
final class Durations {

    private Durations() {
    }

    static Duration parse(String field, String text) {
        if (text == null || text.isBlank()) {
            return null;
        }
        try {
            return GoDuration.parse(text.trim());
        } catch (IllegalArgumentException e) {
            throw MeshException.invalid(field + ": " + e.getMessage());
        }
    }
}
