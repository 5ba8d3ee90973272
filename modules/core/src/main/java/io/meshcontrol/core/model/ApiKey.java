package io.meshcontrol.core.model;

import java.time.Instant;
import java.util.List;

/**
 * An API key as stored: the secret itself is never kept, only its hash.
 *
 * @param ownerUserId the owning user, or null for an all-access key without owner
 * @param creatorUserId the user whose credential made the key, who bounds it as its owner does; null when the local
 *     administrator made it or it was made before creators were recorded (docs/roles-and-scopes.md)
 * @param scopes explicit scopes; empty means "the owner's whole role" (or all access without owner)
 * @param revokedAt when {@code apikeys expire} revoked it, or null
 * @param lastUsedAt null until first use
 */
public record ApiKey(
        String id,
        String prefix,
        String secretHash,
        Long ownerUserId,
        Long creatorUserId,
        List<String> scopes,
        String description,
        Instant createdAt,
        Instant expiresAt,
        Instant revokedAt,
        Instant lastUsedAt) {

    public ApiKey {
        scopes = List.copyOf(scopes);
    }

    public boolean isExpired(Instant now) {
        return revokedAt != null || !now.isBefore(expiresAt);
    }

    public ApiKey rotated(String newPrefix, String newSecretHash, Instant newExpiresAt) {
        return new ApiKey(id, newPrefix, newSecretHash, ownerUserId, creatorUserId, scopes, description, createdAt, newExpiresAt,
                null, lastUsedAt);
    }
}
