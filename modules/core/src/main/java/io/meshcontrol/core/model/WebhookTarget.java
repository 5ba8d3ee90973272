package io.meshcontrol.core.model;

/** An endpoint with the secret that signs its requests: what the delivery worker needs, never shown to callers. */
public record WebhookTarget(WebhookEndpoint endpoint, String secret) {

    @Override
    public String toString() {
        return "WebhookTarget[endpoint=" + endpoint + ", secret=<redacted>]";
    }
}
