package io.meshcontrol.api;

import java.time.Instant;

/**
 * How a log stream's delivery goes.
 *
 * @param lastActivity when a request last succeeded; absent before the first
 * @param lastError the last failure; empty after a success
 */
public record LogStreamStatusView(long entriesSent, long bytesSent, long requests, long failedRequests,
        Instant lastActivity, String lastError) {
}
