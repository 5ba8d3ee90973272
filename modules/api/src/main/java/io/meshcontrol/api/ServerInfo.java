package io.meshcontrol.api;

import java.util.List;

/**
 * {@code GET /api/v1/server}.
 *
 * @param tailnetId the network ID, generated at first start and never changed
 * @param serverUrl the URL clients use ({@code server_url})
 * @param baseDomain the MagicDNS base domain, empty when none
 * @param newPreAuthKey what a new pre-auth key is unless its maker says otherwise (the console's form starts there)
 * @param instance the ID of the instance that answered (as {@code /version} names it)
 * @param leases which instance holds each lease of singleton work now: on SQLite the one process; with several
 *               instances on PostgreSQL the one that reaps, delivers and streams (docs/high-availability.md)
 */
public record ServerInfo(String version, String tailnetId, String serverUrl, String baseDomain,
        NewPreAuthKeyDefaults newPreAuthKey, String instance, List<Lease> leases) {

    public ServerInfo {
        leases = leases == null ? List.of() : List.copyOf(leases);
    }

    /**
     * A lease of singleton work as it is held now.
     *
     * @param holder the ID of the instance holding it
     * @param epoch  grows by one each time the lease changes hands
     */
    public record Lease(String name, String holder, long epoch) {
    }

    /** The same with the leases as they are now. */
    public ServerInfo withLeases(List<Lease> now) {
        return new ServerInfo(version, tailnetId, serverUrl, baseDomain, newPreAuthKey, instance, now);
    }
}
