package io.meshcontrol.api;

/**
 * {@code PUT /api/v1/log-stream/{logType}}: where the audit log ({@code configuration}) is streamed to.
 *
 * @param destinationType {@code http}, {@code splunk}, {@code elastic}, {@code datadog}, {@code axiom} or {@code loki}
 * @param url where batches are posted
 * @param user the user name for Basic authentication (elastic, loki)
 * @param token the destination's secret; write-only
 * @param uploadPeriodMinutes kept as given (batches go out as entries are written)
 * @param compressionFormat kept as given ({@code none}, {@code gzip}, {@code zstd})
 */
public record LogStreamRequest(String destinationType, String url, String user, String token,
        Integer uploadPeriodMinutes, String compressionFormat) {
}
