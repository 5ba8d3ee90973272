package io.meshcontrol.api;

import java.util.List;

/** {@code GET /api/v1/webhook/{id}/deliveries}: newest first, at most 100. */
public record WebhookDeliveryList(List<WebhookDeliveryView> deliveries) {
}
