package io.meshcontrol.api;

import java.time.Instant;

/** A log stream as it was set, without its token. */
public record LogStreamView(String logType, String destinationType, String url, String user, int uploadPeriodMinutes,
        String compressionFormat, Instant updatedAt) {
}
