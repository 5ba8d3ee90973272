package io.meshcontrol.api;

import java.util.List;
import java.util.Map;

/**
 * {@code POST /api/v1/oauth-client} and {@code PATCH /api/v1/oauth-client/{clientId}}. On PATCH a field left out
 * (null) keeps its value.
 *
 * @param keyType {@code client} (default) or {@code federated}
 * @param issuer federated identities only, like {@code audience}, {@code subject} and {@code customClaimRules}
 * @param subject the workload token's required {@code sub}; {@code *} matches any text
 * @param customClaimRules further claims the token must carry, name to pattern
 */
public record OAuthClientRequest(String keyType, List<String> scopes, List<String> tags, String description,
        String issuer, String audience, String subject, Map<String, String> customClaimRules) {

    /** A change of the trust subject only (what {@code svc oauth-clients update --subject} sends). */
    public static OAuthClientRequest subject(String subject) {
        return new OAuthClientRequest(null, null, null, null, null, null, subject, null);
    }
}
