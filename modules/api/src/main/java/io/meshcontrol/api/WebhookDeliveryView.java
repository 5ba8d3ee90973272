package io.meshcontrol.api;

import java.time.Instant;
import java.util.List;

/**
 * A finished delivery.
 *
 * @param status     the receiver's last HTTP status, {@code sent} for an e-mail the mail server took, absent when
 *                   no answer came
 * @param error      what went wrong, absent when it was delivered
 * @param durationMs how long the last attempt took
 */
public record WebhookDeliveryView(long id, List<String> eventTypes, String status, String error, int attempts,
                                  long durationMs, Instant finishedAt) {
}
