package io.meshcontrol.core.netmap;

import java.util.HashSet;
import java.util.Set;

/**
 * What changed during one batch window, as descriptors (not data): which nodes and users, or everything.
 * Sessions merge these and read the current state themselves.
 */
public record ChangeSet(Set<Long> nodeIds, Set<Long> userIds, boolean everything) {

    public ChangeSet {
        nodeIds = Set.copyOf(nodeIds);
        userIds = Set.copyOf(userIds);
    }

    public static ChangeSet all() {
        return new ChangeSet(Set.of(), Set.of(), true);
    }

    public boolean isEmpty() {
        return !everything && nodeIds.isEmpty() && userIds.isEmpty();
    }

    public ChangeSet merge(ChangeSet other) {
        Set<Long> nodes = new HashSet<>(nodeIds);
        nodes.addAll(other.nodeIds);
        Set<Long> users = new HashSet<>(userIds);
        users.addAll(other.userIds);
        return new ChangeSet(nodes, users, everything || other.everything);
    }
}
