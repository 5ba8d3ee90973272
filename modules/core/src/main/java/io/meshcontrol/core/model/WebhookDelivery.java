package io.meshcontrol.core.model;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * A finished delivery to an endpoint, as its history shows it.
 *
 * @param status   the receiver's last HTTP status (250, the SMTP code, for an e-mail the mail server took), 0 when
 *                 none came
 * @param error    what went wrong, or null for a delivery that succeeded
 * @param attempts how many times it was tried
 * @param duration how long the last attempt took
 */
public record WebhookDelivery(long id, String endpointId, List<String> eventTypes, int status, String error,
                              int attempts, Duration duration, Instant finishedAt) {

    public WebhookDelivery {
        eventTypes = List.copyOf(eventTypes);
    }

    public boolean succeeded() {
        return error == null;
    }
}
