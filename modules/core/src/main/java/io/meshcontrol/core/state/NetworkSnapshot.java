package io.meshcontrol.core.state;

import io.meshcontrol.core.key.NodePublicKey;
import io.meshcontrol.core.model.Node;
import io.meshcontrol.core.model.User;
import java.util.Map;
import java.util.Optional;

/**
 * The nodes and users as of one moment, immutable. Map building reads these instead of the database.
 *
 * @param version increases with every applied change
 */
public record NetworkSnapshot(long version, Map<Long, Node> nodes, Map<Long, User> users,
        Map<NodePublicKey, Long> nodeIdsByKey) {

    public NetworkSnapshot {
        nodes = Map.copyOf(nodes);
        users = Map.copyOf(users);
        nodeIdsByKey = Map.copyOf(nodeIdsByKey);
    }

    public Optional<Node> node(long id) {
        return Optional.ofNullable(nodes.get(id));
    }

    public Optional<Node> nodeByKey(NodePublicKey key) {
        Long id = nodeIdsByKey.get(key);
        return id == null ? Optional.empty() : node(id);
    }

    public Optional<User> user(Long id) {
        return id == null ? Optional.empty() : Optional.ofNullable(users.get(id));
    }
}
