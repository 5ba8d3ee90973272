package io.meshcontrol.core.netmap;

import io.meshcontrol.core.location.GeoDatabase;
import io.meshcontrol.core.model.Node;
import io.meshcontrol.core.policy.PolicyInventory;
import io.meshcontrol.core.policy.PolicyNode;
import io.meshcontrol.core.policy.PolicyUser;
import io.meshcontrol.core.state.NetworkSnapshot;
import io.meshcontrol.core.state.NetworkSnapshot.NodeEntry;
import io.meshcontrol.core.state.PolicyInventories;
import java.util.ArrayList;
import java.util.List;

/**
 * What the policy sees of a snapshot ({@link PolicyInventories#of}), with the stored node each machine was made
 * from, so that the next snapshot's inventory is found by comparing row objects: a node whose row is the same object
 * is the same machine, and only the nodes written since are turned into machines again. The change is classified
 * too, because a join (machines appended) can extend a compilation where anything else compiles anew.
 *
 * @param sources the stored node of each of the inventory's machines, in the same order
 * @param locations the location database the machines were placed with; with another, every machine is made anew.
 *     Null when they were made without posture facts (a policy without postures)
 */
record TrackedInventory(PolicyInventory inventory, List<Node> sources, GeoDatabase locations) {

    /** How a snapshot's inventory differs from the one it was compared with. */
    enum Change {
        /** The same machines and users: the policy sees nothing new (presence, endpoints, host information). */
        NONE,
        /** The same users, the same machines, and machines whose ids follow all of them: nodes joined. */
        APPENDED,
        /** Anything else: machines changed, left or were inserted among the others, or users changed. */
        OTHER
    }

    /** The inventory of another snapshot and how it differs from the one compared with. */
    record Step(TrackedInventory next, Change change, List<PolicyNode> appended) {
    }

    /** The inventory of a snapshot compared with nothing: every machine made anew, in the same one pass. */
    static TrackedInventory of(NetworkSnapshot snapshot) {
        return of(snapshot, GeoDatabase.NONE);
    }

    static TrackedInventory of(NetworkSnapshot snapshot, GeoDatabase locations) {
        return new TrackedInventory(new PolicyInventory(List.of(), List.of()), List.of(), locations).next(snapshot,
                locations).next();
    }

    /**
     * The inventory of {@code snapshot}, reusing this one's machines for nodes whose row is the same object. One pass
     * over both in id order comparing references: O(N) with a small constant, where building every machine and
     * comparing inventories field by field cost a join at N = 10,000 more than the rest of its work.
     */
    Step next(NetworkSnapshot snapshot) {
        return next(snapshot, locations);
    }

    /** As {@link #next(NetworkSnapshot)}, placing machines with {@code database} (every one again if it is new). */
    Step next(NetworkSnapshot snapshot, GeoDatabase database) {
        boolean samePlaces = database == locations;
        List<PolicyUser> users = PolicyInventories.of(snapshot.users().values());
        List<PolicyNode> before = inventory.nodes();
        List<PolicyNode> machines = new ArrayList<>(before.size() + 1);
        List<Node> rows = new ArrayList<>(before.size() + 1);
        int matched = 0; // machines of this inventory passed, in id order
        boolean changed = !users.equals(inventory.users());
        int firstNew = -1;
        for (NodeEntry entry : snapshot.entriesInIdOrder()) {
            Node node = entry.node();
            if (!node.admitted()) {
                continue;
            }
            while (matched < before.size() && before.get(matched).id() < node.id()) {
                matched++; // left, or no longer admitted
                changed = true;
            }
            PolicyNode machine;
            if (matched < before.size() && before.get(matched).id() == node.id()) {
                PolicyNode known = before.get(matched);
                machine = samePlaces && sources.get(matched) == node ? known : PolicyInventories.node(node, database);
                matched++;
                if (machine.equals(known)) {
                    machine = known; // the same instance: later comparisons stop at the reference
                } else {
                    changed = true;
                }
            } else {
                machine = PolicyInventories.node(node, database);
                // Among the known machines (a new id below a known one, or a node admitted again): not a join.
                changed |= matched < before.size();
                if (firstNew < 0) {
                    firstNew = machines.size();
                }
            }
            machines.add(machine);
            rows.add(node);
        }
        changed |= matched < before.size();
        TrackedInventory next = new TrackedInventory(
                !changed && firstNew < 0 ? inventory : new PolicyInventory(users, machines), rows, database);
        if (changed) {
            return new Step(next, Change.OTHER, List.of());
        }
        return firstNew < 0 ? new Step(next, Change.NONE, List.of())
                : new Step(next, Change.APPENDED, List.copyOf(machines.subList(firstNew, machines.size())));
    }
}
