package io.meshcontrol.api;

import java.util.List;

/**
 * {@code POST /api/v1/webhook} (all three fields) and {@code PATCH /api/v1/webhook/{id}} (only
 * {@code subscriptions}: an endpoint's URL and provider are fixed).
 *
 * @param url           http(s) URL, or {@code mailto:} recipients for the {@code email} provider
 * @param provider      {@code slack}, {@code mattermost}, {@code googlechat}, {@code teams}, {@code discord},
 *                      {@code telegram}, {@code ntfy}, {@code email}, or absent for the signed JSON array
 * @param subscriptions event types from {@code GET /api/v1/webhook/event-types}
 */
public record WebhookRequest(String url, String provider, List<String> subscriptions) {
}
