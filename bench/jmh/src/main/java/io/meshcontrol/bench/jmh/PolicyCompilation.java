package io.meshcontrol.bench.jmh;

import io.meshcontrol.core.model.Node;
import io.meshcontrol.core.netmap.AccessRules;
import io.meshcontrol.core.policy.Policy;
import io.meshcontrol.core.state.NetworkSnapshot;
import io.meshcontrol.core.wire.FilterRule;
import java.util.List;

/**
 * Glue for "compile policy P for snapshot S" and what is asked of the result per node (its packet filter, whom
 * it sees). The only class of the policy benchmarks that calls core's policy code.
 */
public final class PolicyCompilation {

    private PolicyCompilation() {
    }

    public static Policy parse(String text) {
        return Policy.parse(text);
    }

    /** The compiled form the server keeps per (policy, snapshot). */
    public static Object compile(Policy policy, NetworkSnapshot snapshot) {
        return AccessRules.compile(policy, snapshot);
    }

    /** Compiles, then answers for one node what its map needs: the packet filter and how many nodes it sees. */
    public static int compileForNode(Policy policy, NetworkSnapshot snapshot, long nodeId) {
        AccessRules rules = AccessRules.compile(policy, snapshot);
        Node node = snapshot.node(nodeId).orElseThrow();
        List<FilterRule> filter = rules.packetFilter(node);
        int seen = 0;
        for (Node peer : snapshot.nodes().values()) {
            if (peer.id() != nodeId && rules.sees(node, peer)) {
                seen++;
            }
        }
        return filter.size() + seen;
    }
}
