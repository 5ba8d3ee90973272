package io.meshcontrol.core.importing.headscale;

import java.time.Instant;
import java.util.List;

/**
 * What a headscale database holds, as read, before any mapping. Soft-deleted rows are left out. Times are null where
 * headscale has none (it writes Go's zero time, year 1, for some of them).
 *
 * @param policy the newest policy of database mode, or null when the database holds none
 */
record HeadscaleData(List<User> users, List<Node> nodes, List<PreAuthKey> preAuthKeys, List<ApiKey> apiKeys,
        String policy) {

    HeadscaleData {
        users = List.copyOf(users);
        nodes = List.copyOf(nodes);
        preAuthKeys = List.copyOf(preAuthKeys);
        apiKeys = List.copyOf(apiKeys);
    }

    /** @param providerIdentifier OIDC issuer and subject joined by a slash, or null for a local user */
    record User(long id, String name, String displayName, String email, String providerIdentifier,
            Instant createdAt) {
    }

    /**
     * @param userId null for a tagged node
     * @param authKeyId the pre-auth key it registered with, or null
     * @param hostinfo the client's Hostinfo JSON as headscale kept it
     * @param endpoints JSON list of address:port texts
     * @param tags JSON list
     * @param approvedRoutes JSON list of prefixes
     */
    record Node(long id, String machineKey, String nodeKey, String discoKey, String endpoints, String hostinfo,
            String ipv4, String ipv6, String hostname, String givenName, Long userId, String registerMethod,
            String tags, Long authKeyId, Instant lastSeen, Instant expiry, String approvedRoutes, Instant createdAt) {
    }

    /**
     * @param legacyKey the whole key in plain text (keys made before headscale hashed them), or null
     * @param prefix the public part of a hashed key ({@code hskey-auth-<prefix>-<secret>}), or null
     * @param hash bcrypt hash of the secret part, or null
     * @param tags JSON list
     */
    record PreAuthKey(long id, String legacyKey, String prefix, String hash, Long userId, boolean reusable,
            boolean ephemeral, boolean used, String tags, Instant expiration, Instant createdAt) {
    }

    record ApiKey(long id, String prefix, Instant expiration, Instant lastSeen, Instant createdAt) {
    }
}
