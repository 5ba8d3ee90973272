package io.meshcontrol.api;

import java.time.Instant;
import java.util.List;

/**
 * A pre-auth key without its secret.
 *
 * @param user the user whose nodes it registers; absent for a tags-only key
 * @param valid false once revoked, expired or used up; {@code invalidReason} then says which
 */
public record PreAuthKeyView(
        String id,
        String prefix,
        String user,
        List<String> tags,
        boolean reusable,
        boolean ephemeral,
        boolean preauthorized,
        String description,
        Instant createdAt,
        Instant expiresAt,
        boolean valid,
        String invalidReason,
        int useCount,
        Instant lastUsedAt) {
}
