package io.meshcontrol.api;

import java.time.Instant;
import java.util.List;

/**
 * A finished delivery.
 *
 * @param status     the receiver's last HTTP status (250 for an e-mail the mail server took), 0 when none came
 * @param error      what went wrong, absent when it was delivered
 * @param durationMs how long the last attempt took
 */
public record WebhookDeliveryView(long id, List<String> eventTypes, int status, String error, int attempts,
                                  long durationMs, Instant finishedAt) {
}
