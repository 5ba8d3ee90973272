package io.meshcontrol.api;

import java.time.Instant;

/**
 * An access request as the API shows it.
 *
 * @param user the name of the user who is to join
 * @param duration as asked, in Go syntax
 * @param state {@code pending}, {@code approved}, {@code denied}, {@code revoked} or {@code expired}
 * @param requestedBy the actor who filed it
 * @param decidedBy who approved or denied it; absent while pending
 * @param expiresAt when an approved membership ends by itself; absent unless approved
 * @param endedAt when a granted membership ended (revoked or expired); absent otherwise
 * @param endedBy who revoked it; absent otherwise
 */
public record AccessRequestView(
        String id,
        String user,
        String group,
        String reason,
        String duration,
        String state,
        String requestedBy,
        Instant createdAt,
        String decidedBy,
        Instant decidedAt,
        Instant expiresAt,
        Instant endedAt,
        String endedBy) {
}
