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
        return mergeAll(java.util.List.of(this, other));
    }

    /** All of these at once: one copy of the ids, however many sets (merging pairwise would copy them again and again). */
    public static ChangeSet mergeAll(java.util.List<ChangeSet> sets) {
        if (sets.size() == 1) {
            return sets.getFirst();
        }
        Set<Long> nodes = new HashSet<>();
        Set<Long> users = new HashSet<>();
        boolean everything = false;
        for (ChangeSet set : sets) {
            nodes.addAll(set.nodeIds);
            users.addAll(set.userIds);
            everything |= set.everything;
        }
        return new ChangeSet(nodes, users, everything);
    }
}
