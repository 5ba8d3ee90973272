package io.meshcontrol.api;

import java.util.List;

/** {@code GET /api/v1/webhook/event-types}: what an endpoint may subscribe to ({@code test} needs no subscription). */
public record WebhookEventTypes(List<String> eventTypes) {
}
