package io.meshcontrol.core.netmap.session;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * What changed during one batch window, as descriptors (not data): which nodes and users, whether the policy
 * changed, or everything. Sessions merge these and read the state themselves.
 *
 * @param policy the policy changed: every session looks at its filter, SSH policy, capabilities and peers again,
 *     but nothing else (no DNS or relay map), and sends only what differs
 */
public record ChangeSet(Set<Long> nodeIds, Set<Long> userIds, boolean everything, boolean policy) {

    public ChangeSet {
        nodeIds = nodeIds instanceof IdUnion union ? union : Set.copyOf(nodeIds); // a union is read-only already
        userIds = Set.copyOf(userIds);
    }

    public ChangeSet(Set<Long> nodeIds, Set<Long> userIds, boolean everything) {
        this(nodeIds, userIds, everything, false);
    }

    public static ChangeSet all() {
        return new ChangeSet(Set.of(), Set.of(), true, false);
    }

    public static ChangeSet policyChanged() {
        return new ChangeSet(Set.of(), Set.of(), false, true);
    }

    public boolean isEmpty() {
        return !everything && !policy && nodeIds.isEmpty() && userIds.isEmpty();
    }

    public ChangeSet merge(ChangeSet other) {
        return mergeAll(List.of(this, other));
    }

    /** How many nodes this names, or more: without building a merged set's union. */
    public int nodeCountAtMost() {
        return nodeIds instanceof IdUnion union ? union.sizeAtMost() : nodeIds.size();
    }

    /**
     * All of these at once. The node ids are not copied ({@link IdUnion}): a stream asks the merged set about its
     * own peers more often than it walks it.
     */
    public static ChangeSet mergeAll(List<ChangeSet> sets) {
        if (sets.size() == 1) {
            return sets.getFirst();
        }
        List<Set<Long>> nodes = new ArrayList<>(sets.size());
        Set<Long> users = new HashSet<>();
        boolean everything = false;
        boolean policy = false;
        for (ChangeSet set : sets) {
            nodes.add(set.nodeIds);
            users.addAll(set.userIds);
            everything |= set.everything;
            policy |= set.policy;
        }
        return new ChangeSet(IdUnion.of(nodes), users, everything, policy);
    }
}
