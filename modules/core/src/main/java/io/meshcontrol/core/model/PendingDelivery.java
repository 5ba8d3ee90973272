package io.meshcontrol.core.model;

import java.time.Instant;
import java.util.List;

/**
 * A delivery in the outbox: written before it is first attempted, removed when it is finished.
 *
 * @param events        the JSON array of event objects, exactly as the signed-array body sends it
 * @param attempts      attempts made so far
 * @param nextAttemptAt when it is due
 * @param claim         the claim of the worker attempting it now, null when none is (WebhookStore#claimDue)
 */
public record PendingDelivery(long id, String endpointId, String events, List<String> eventTypes, int attempts,
                              Instant nextAttemptAt, Instant created, String claim) {

    public PendingDelivery {
        eventTypes = List.copyOf(eventTypes);
    }
}
