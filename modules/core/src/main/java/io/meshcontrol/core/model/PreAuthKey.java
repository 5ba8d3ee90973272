package io.meshcontrol.core.model;

import java.time.Instant;
import java.util.List;

/**
 * A key nodes present at registration ({@code mesh_tailnet_key}). Only the hash of its secret is kept.
 *
 * @param userId the user whose nodes it registers, or null for a tags-only key
 * @param tags tags the registered nodes carry; a tagged node belongs to its tags
 * @param reusable false: one registration uses it up
 * @param ephemeral registered nodes are removed after going offline
 * @param preauthorized registered nodes skip device approval
 * @param revokedAt when it was deleted (revoked), or null
 */
public record PreAuthKey(
        long id,
        String prefix,
        String secretHash,
        Long userId,
        List<String> tags,
        boolean reusable,
        boolean ephemeral,
        boolean preauthorized,
        String description,
        Instant createdAt,
        Instant expiresAt,
        Instant revokedAt,
        int useCount,
        Instant lastUsedAt) {

    public PreAuthKey {
        tags = List.copyOf(tags);
    }

    /** Why the key can no longer register nodes, or null while it can. */
    public String invalidReason(Instant now) {
        if (revokedAt != null) {
            return "the key was revoked";
        }
        if (!now.isBefore(expiresAt)) {
            return "the key has expired";
        }
        if (!reusable && useCount > 0) {
            return "the key was single-use and has been used";
        }
        return null;
    }

    public boolean isValid(Instant now) {
        return invalidReason(now) == null;
    }
}
