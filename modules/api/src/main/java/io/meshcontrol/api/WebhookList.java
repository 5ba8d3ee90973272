package io.meshcontrol.api;

import java.util.List;

/** {@code GET /api/v1/webhook}. */
public record WebhookList(List<WebhookView> webhooks) {
}
