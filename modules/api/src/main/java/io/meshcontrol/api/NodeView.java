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
        LocationView location) {

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
