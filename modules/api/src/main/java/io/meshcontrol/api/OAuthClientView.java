package io.meshcontrol.api;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * An OAuth client or federated identity, without its secret.
 *
 * @param keyType {@code client} or {@code federated}
 * @param issuer absent for a plain client, like {@code audience}, {@code subject} and {@code customClaimRules}
 * @param creator who created it: {@code apikey:<id>}, {@code local-admin} or {@code oauth:<client id>}
 * @param revoked true once deleted (revoked); its secret and tokens no longer work
 */
public record OAuthClientView(
        String id,
        String keyType,
        List<String> scopes,
        List<String> tags,
        String description,
        String issuer,
        String audience,
        String subject,
        Map<String, String> customClaimRules,
        String creator,
        Instant createdAt,
        Instant updatedAt,
        boolean revoked) {
}
