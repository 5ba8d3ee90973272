package io.meshcontrol.core.model;

import java.time.Instant;

/**
 * A custom posture attribute of a node ({@code custom:<name>}), for posture conditions in the policy.
 *
 * @param value a string, a number or a boolean
 * @param expiry when the attribute stops applying, or null for never
 */
public record PostureAttribute(String name, Object value, Instant expiry, String comment) {
}
