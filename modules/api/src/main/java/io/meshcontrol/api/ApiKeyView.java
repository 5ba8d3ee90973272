package io.meshcontrol.api;

import java.time.Instant;
import java.util.List;

/**
 * An API key without its secret.
 *
 * @param user the owner's name, or null for an all-access key
 * @param scopes explicit scopes; empty means the owner's whole role
 * @param expired true once past its expiry or revoked by {@code apikeys expire}
 */
public record ApiKeyView(
        String id,
        String prefix,
        String description,
        String user,
        List<String> scopes,
        Instant createdAt,
        Instant expiresAt,
        boolean expired,
        Instant lastUsedAt) {
}
