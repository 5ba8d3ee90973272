package io.meshcontrol.core.state;

import io.meshcontrol.core.event.EventBus;
import io.meshcontrol.core.event.MeshEvent;
import io.meshcontrol.core.key.NodePublicKey;
import io.meshcontrol.core.model.Node;
import io.meshcontrol.core.model.User;
import io.meshcontrol.core.store.NodeStore;
import io.meshcontrol.core.store.UserStore;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.jdbi.v3.core.Jdbi;

/**
 * Keeps the current {@link NetworkSnapshot}. Loaded once, then updated from change events; each event
 * re-reads the changed row, so two changes published out of order still leave the committed state.
 * It subscribes before anything else, so subscribers that come later see the snapshot already updated.
 */
public final class Snapshots {

    private final Jdbi jdbi;
    private final NodeStore nodes;
    private final UserStore users;
    private volatile NetworkSnapshot current;

    Snapshots(Jdbi jdbi, NodeStore nodes, UserStore users, EventBus events) {
        this.jdbi = jdbi;
        this.nodes = nodes;
        this.users = users;
        this.current = jdbi.withHandle(h -> {
            Map<Long, Node> allNodes = new HashMap<>();
            nodes.all(h).forEach(node -> allNodes.put(node.id(), node));
            Map<Long, User> allUsers = new HashMap<>();
            users.all(h).forEach(user -> allUsers.put(user.id(), user));
            return new NetworkSnapshot(0, allNodes, allUsers, keyIndex(allNodes));
        });
        events.subscribe(this::apply);
    }

    public NetworkSnapshot current() {
        return current;
    }

    private synchronized void apply(MeshEvent event) {
        switch (event) {
            case MeshEvent.NodeEvent nodeEvent -> refreshNode(nodeEvent.node().id());
            case MeshEvent.UserCreated e -> refreshUser(e.user().id());
            case MeshEvent.UserChanged e -> refreshUser(e.user().id());
            case MeshEvent.UserRoleUpdated e -> refreshUser(e.user().id());
            case MeshEvent.UserDeleted e -> refreshUser(e.user().id());
            case MeshEvent.PolicyUpdated e -> {
                // the policy is held by Policies; nothing in the snapshot changes
            }
        }
    }

    private void refreshNode(long id) {
        Optional<Node> fresh = jdbi.withHandle(h -> nodes.byId(h, id));
        Map<Long, Node> updated = new HashMap<>(current.nodes());
        fresh.ifPresentOrElse(node -> updated.put(id, node), () -> updated.remove(id));
        current = new NetworkSnapshot(current.version() + 1, updated, current.users(), keyIndex(updated));
    }

    private void refreshUser(long id) {
        Optional<User> fresh = jdbi.withHandle(h -> users.byId(h, id));
        Map<Long, User> updated = new HashMap<>(current.users());
        fresh.ifPresentOrElse(user -> updated.put(id, user), () -> updated.remove(id));
        current = new NetworkSnapshot(current.version() + 1, current.nodes(), updated, current.nodeIdsByKey());
    }

    private static Map<NodePublicKey, Long> keyIndex(Map<Long, Node> all) {
        Map<NodePublicKey, Long> index = new HashMap<>();
        all.values().forEach(node -> index.put(node.nodeKey(), node.id()));
        return index;
    }
}
