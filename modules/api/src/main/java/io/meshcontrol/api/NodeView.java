package io.meshcontrol.api;

import java.time.Instant;
import java.util.List;

/**
 * A node as the API shows it.
 *
 * @param name its MagicDNS label in the network (renaming changes it)
 * @param hostname what the machine calls itself
 * @param user owner's name; absent for a tagged node, which belongs to its tags
 * @param authorized false while it waits for device approval
 * @param online whether it holds a map stream to the server now
 * @param lastSeen when the server last heard from it: the time of the answer while it is online, the end of its
 *     last map stream while offline; absent for a node that never connected
 * @param keyExpiry absent when the node key does not expire
 * @param routes approved, available (advertised) and serving routes
 * @param suspended set by an administrator: it keeps its row but has no peers and is no one's peer
 * @param location where the location database ({@code policy.geoip_database}) places it; absent without one, or
 *     when none of its public endpoints is in it
 * @param client what its client reports about itself (OS, version, endpoints, home relay) and what the server makes
 *     of it (update available, relayed); absent only from views made by an older server
 * @param tailnetLockSign present while the tailnet lock locks the node out (peers refuse it): the command that signs
 *     it, to run on a machine with a trusted signing key ({@code tailscale lock sign nodekey:...})
 */
public record NodeView(
        String id,
        String stableId,
        String name,
        String hostname,
        String user,
        List<String> tags,
        String ipv4,
        String ipv6,
        String machineKey,
        String nodeKey,
        boolean authorized,
        boolean ephemeral,
        boolean expired,
        String registerMethod,
        Instant createdAt,
        boolean online,
        Instant lastSeen,
        Instant keyExpiry,
        RoutesView routes,
        boolean suspended,
        LocationView location,
        ClientView client,
        String tailnetLockSign) {

    /** A view that says nothing of the tailnet lock, as servers before it answered. */
    public NodeView(String id, String stableId, String name, String hostname, String user, List<String> tags,
            String ipv4, String ipv6, String machineKey, String nodeKey, boolean authorized, boolean ephemeral,
            boolean expired, String registerMethod, Instant createdAt, boolean online, Instant lastSeen,
            Instant keyExpiry, RoutesView routes, boolean suspended, LocationView location, ClientView client) {
        this(id, stableId, name, hostname, user, tags, ipv4, ipv6, machineKey, nodeKey, authorized, ephemeral, expired,
                registerMethod, createdAt, online, lastSeen, keyExpiry, routes, suspended, location, client, null);
    }

    /** The same view, locked out by the tailnet lock until {@code signCommand} is run (null: not locked out). */
    public NodeView withTailnetLockSign(String signCommand) {
        return new NodeView(id, stableId, name, hostname, user, tags, ipv4, ipv6, machineKey, nodeKey, authorized,
                ephemeral, expired, registerMethod, createdAt, online, lastSeen, keyExpiry, routes, suspended, location,
                client, signCommand);
    }

    /** Whether peers under the tailnet lock refuse this node. */
    public boolean lockedOut() {
        return tailnetLockSign != null;
    }

    /** A view without client facts, as servers before them answered. */
    public NodeView(String id, String stableId, String name, String hostname, String user, List<String> tags,
            String ipv4, String ipv6, String machineKey, String nodeKey, boolean authorized, boolean ephemeral,
            boolean expired, String registerMethod, Instant createdAt, boolean online, Instant lastSeen,
            Instant keyExpiry, RoutesView routes, boolean suspended, LocationView location) {
        this(id, stableId, name, hostname, user, tags, ipv4, ipv6, machineKey, nodeKey, authorized, ephemeral, expired,
                registerMethod, createdAt, online, lastSeen, keyExpiry, routes, suspended, location, (ClientView) null);
    }

    /**
     * What a node's client reports about itself, and what the server can tell from it.
     *
     * @param os the operating system as the client names it ("linux", "windows", "macOS", "iOS", "android");
     *     absent until the client reported it
     * @param osVersion the OS version as the client reports it; absent when not reported
     * @param version the client's release ("1.80.3", the short form of its Hostinfo's IPNVersion); absent when not
     *     reported
     * @param latestVersion the latest stable release the server knows of ({@code client_updates}); absent while it
     *     knows none (lookups off, or none succeeded yet)
     * @param updateAvailable true when {@code version} is older than {@code latestVersion}; absent when either is
     *     unknown
     * @param endpoints the addresses and ports the client reported it can be reached at (ip:port)
     * @param homeRegion the relay (DERP) region the client reports as its home; 0 when it reported none
     * @param homeRegionName that region's name in the relay map; absent when the map has no such region
     * @param connection {@code relayed} when the client reports that UDP does not work where it is (every connection
     *     goes through a relay), otherwise {@code unknown}: whether two clients talk directly is settled between
     *     them and not reported to the control server (docs/api.md, "What the server knows of a machine")
     */
    public record ClientView(
            String os,
            String osVersion,
            String version,
            String latestVersion,
            Boolean updateAvailable,
            List<String> endpoints,
            int homeRegion,
            String homeRegionName,
            String connection) {
    }

    /**
     * Where a node is, by its public address.
     *
     * @param country ISO 3166-1 alpha-2 code
     * @param city absent where the database has none
     * @param address the public address it was placed by
     */
    public record LocationView(String country, String city, String address) {
    }
}
