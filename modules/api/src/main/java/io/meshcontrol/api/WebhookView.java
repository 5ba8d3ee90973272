package io.meshcontrol.api;

import java.time.Instant;
import java.util.List;

/**
 * A webhook endpoint, without its secret.
 *
 * @param provider "" for the signed JSON array
 * @param creator  who created it ({@code apikey:<id>}, {@code local-admin}, ...)
 */
public record WebhookView(String id, String url, String provider, List<String> subscriptions, String creator,
                          Instant createdAt, Instant updatedAt) {
}
