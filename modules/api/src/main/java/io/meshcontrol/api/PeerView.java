package io.meshcontrol.api;

import java.util.List;

/**
 * A peer as a node's map gives it ({@code GET /api/v1/node/{id}/peers}).
 *
 * @param id the peer's node id
 * @param name its MagicDNS label
 * @param user owner's name; absent for a tagged peer
 * @param online whether it holds a map stream to the server now
 */
public record PeerView(String id, String name, String user, List<String> tags, String ipv4, String ipv6,
        boolean online) {
}
