package io.meshcontrol.core.model;

import java.time.Instant;
import java.util.List;

/**
 * Where events go: an http(s) URL, or {@code mailto:} recipients for the {@code email} provider. The secret that
 * signs its requests is not part of it: it is shown once, when made.
 *
 * @param id           a random text id
 * @param provider     the body shape ({@code slack}, {@code discord}, {@code email} ...), or "" for the signed array
 * @param subscriptions the event types it hears ({@code test} needs no subscription)
 * @param creator      who made it (the caller's actor)
 */
public record WebhookEndpoint(String id, String url, String provider, List<String> subscriptions, String creator,
                              Instant created, Instant lastModified) {

    public WebhookEndpoint {
        subscriptions = List.copyOf(subscriptions);
    }

    /** True when it hears {@code type}: subscribed to it or to a category; every endpoint hears {@code test}. */
    public boolean hears(String type) {
        return "test".equals(type) || subscriptions.contains(type)
                || subscriptions.contains("categoryTailnetManagement");
    }
}
