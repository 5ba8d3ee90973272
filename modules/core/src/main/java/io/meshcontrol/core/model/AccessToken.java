package io.meshcontrol.core.model;

import java.time.Instant;
import java.util.List;

/**
 * An OAuth access token as stored: the hash of its secret, what it carries and until when. Stored, not held in
 * memory, so that a restart keeps issued tokens valid for the rest of their hour.
 */
public record AccessToken(String prefix, String secretHash, String clientId, List<String> scopes, List<String> tags,
        Instant createdAt, Instant expiresAt) {

    public AccessToken {
        scopes = List.copyOf(scopes);
        tags = List.copyOf(tags);
    }
}
