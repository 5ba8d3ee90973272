package io.meshcontrol.api;

/** An endpoint just created or rotated, with its signing secret, shown this once. */
public record IssuedWebhook(WebhookView webhook, String secret) {
}
