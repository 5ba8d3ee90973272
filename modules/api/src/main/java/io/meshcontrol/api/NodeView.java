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
 * @param keyExpiry absent when the node key does not expire
 * @param routes approved, available (advertised) and serving routes
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
        Instant lastSeen,
        Instant keyExpiry,
        RoutesView routes) {
}
