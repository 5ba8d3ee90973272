package io.meshcontrol.core.model;

import java.time.Instant;

/**
 * Where the audit log (the vendor's "configuration" logs) is streamed to.
 *
 * @param logType always {@code configuration}: network flow logs are not collected here
 * @param destinationType {@code http}, {@code splunk}, {@code elastic}, {@code datadog}, {@code axiom} or {@code loki}
 * @param url where batches are posted, as the destination takes them (docs/events.md)
 * @param user the user name for destinations that take Basic authentication (elastic, loki); kept as given
 * @param token the secret the destination is authenticated with; never shown again
 * @param uploadPeriodMinutes kept as given (batches go out as entries are written)
 * @param compressionFormat kept as given ({@code none}, {@code gzip}, {@code zstd}); bodies are sent uncompressed
 * @param updated when the configuration last changed
 */
public record LogStream(String logType, String destinationType, String url, String user, String token,
        int uploadPeriodMinutes, String compressionFormat, Instant updated) {

    /**
     * How a stream's delivery is going, for {@code .../stream/status}.
     *
     * @param deliveredTo the id of the last audit entry the destination took
     * @param lastActivity when a request last succeeded, or null
     * @param lastError the last failure, empty after a success
     */
    public record Status(long deliveredTo, long entriesSent, long bytesSent, long requests, long failedRequests,
            Instant lastActivity, String lastError) {
    }
}
