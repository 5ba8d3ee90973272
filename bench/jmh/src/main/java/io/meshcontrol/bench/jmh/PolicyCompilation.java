package io.meshcontrol.bench.jmh;

import io.meshcontrol.core.model.Node;
import io.meshcontrol.core.netmap.AccessRules;
import io.meshcontrol.core.policy.CompiledPolicy;
import io.meshcontrol.core.policy.Policy;
import io.meshcontrol.core.policy.PolicyInventory;
import io.meshcontrol.core.policy.PolicyNode;
import io.meshcontrol.core.state.NetworkSnapshot;
import io.meshcontrol.core.state.PolicyInventories;
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

    /** The policy compiled for every node of the snapshot but the one with the highest id, which then joins it. */
    public static CompiledPolicy compileBeforeJoin(Policy policy, NetworkSnapshot snapshot) {
        List<PolicyNode> nodes = PolicyInventories.of(snapshot).nodes();
        return CompiledPolicy.compile(policy, new PolicyInventory(PolicyInventories.of(snapshot).users(),
                nodes.subList(0, nodes.size() - 1)), "");
    }

    /** The node {@link #compileBeforeJoin} left out, as the policy sees it. */
    public static PolicyNode joining(NetworkSnapshot snapshot) {
        List<PolicyNode> nodes = PolicyInventories.of(snapshot).nodes();
        return nodes.get(nodes.size() - 1);
    }

    /** What a join costs the server's compilation: the compilation before it, extended by one machine. */
    public static Object join(CompiledPolicy before, PolicyNode joining) {
        return before.withAppended(List.of(joining));
    }
}
