package io.meshcontrol.core.model;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * An OAuth client (keyType {@code client}: a secret exchanged for access tokens) or a federated identity (keyType
 * {@code federated}: a workload's OIDC token exchanged for access tokens, no secret). Tokens carry its scopes and
 * tags. Only the hash of a client's secret is kept.
 *
 * @param secretHash null for a federated identity
 * @param trust what a workload's token must show; null for a plain client
 * @param creator the actor that created it ({@code apikey:k...}, {@code local-admin}, {@code oauth:<id>})
 * @param revokedAt when it was revoked (deleted), or null
 */
public record OAuthClient(String id, Kind kind, String secretHash, List<String> scopes, List<String> tags,
        String description, Trust trust, String creator, Instant createdAt, Instant updatedAt, Instant revokedAt) {

    public enum Kind {
        CLIENT("client"),
        FEDERATED("federated");

        private final String wireName;

        Kind(String wireName) {
            this.wireName = wireName;
        }

        /** The vendor's keyType. */
        public String wireName() {
            return wireName;
        }

        public static Kind fromWireName(String name) {
            for (Kind kind : values()) {
                if (kind.wireName.equals(name)) {
                    return kind;
                }
            }
            throw new IllegalArgumentException(name);
        }
    }

    /**
     * The trust conditions of a federated identity.
     *
     * @param subject the required {@code sub}; {@code *} matches any run of characters
     * @param customClaimRules further claims, each name to a pattern with {@code *} wildcards
     */
    public record Trust(String issuer, String audience, String subject, Map<String, String> customClaimRules) {

        public Trust {
            customClaimRules = customClaimRules == null ? Map.of()
                    : java.util.Collections.unmodifiableMap(new LinkedHashMap<>(customClaimRules));
        }
    }

    public OAuthClient {
        scopes = List.copyOf(scopes);
        tags = List.copyOf(tags);
    }

    public boolean isRevoked() {
        return revokedAt != null;
    }
}
