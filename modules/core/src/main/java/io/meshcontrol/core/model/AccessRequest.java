package io.meshcontrol.core.model;

import java.time.Duration;
import java.time.Instant;

/**
 * A user's request to be in a policy group for a while (just-in-time access, docs/access-requests.md).
 *
 * @param userId who is to join
 * @param group the policy group ({@code group:x})
 * @param duration how long the membership lasts once approved
 * @param requestedBy the actor who filed it (the user's own credential, or an approver filing for them)
 * @param decidedBy who approved or denied it; null while pending
 * @param expiresAt when an approved membership ends by itself; null unless approved
 * @param endedAt when an approved membership ended (revoked or expired); null otherwise
 * @param endedBy who revoked it, or null
 */
public record AccessRequest(long id, long userId, String group, String reason, Duration duration, State state,
        String requestedBy, Instant createdAt, String decidedBy, Instant decidedAt, Instant expiresAt,
        Instant endedAt, String endedBy) {

    public enum State {
        PENDING, APPROVED, DENIED, REVOKED, EXPIRED;

        public String wireName() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /** Whether the membership is in force at {@code now}. */
    public boolean grants(Instant now) {
        return state == State.APPROVED && now.isBefore(expiresAt);
    }

    public AccessRequest approved(String actor, Instant at) {
        return new AccessRequest(id, userId, group, reason, duration, State.APPROVED, requestedBy, createdAt, actor, at,
                at.plus(duration), null, null);
    }

    public AccessRequest denied(String actor, Instant at) {
        return new AccessRequest(id, userId, group, reason, duration, State.DENIED, requestedBy, createdAt, actor, at,
                null, null, null);
    }

    /** An approved membership ended early ({@code actor} non-null: revoked) or by itself (null: expired). */
    public AccessRequest ended(String actor, Instant at) {
        return new AccessRequest(id, userId, group, reason, duration, actor == null ? State.EXPIRED : State.REVOKED,
                requestedBy, createdAt, decidedBy, decidedAt, expiresAt, at, actor);
    }
}
