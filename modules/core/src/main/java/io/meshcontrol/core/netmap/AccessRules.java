package io.meshcontrol.core.netmap;

import io.meshcontrol.core.model.Node;
import io.meshcontrol.core.model.User;
import io.meshcontrol.core.policy.CompiledPolicy;
import io.meshcontrol.core.policy.Policy;
import io.meshcontrol.core.policy.PolicyInventory;
import io.meshcontrol.core.policy.PolicyNode;
import io.meshcontrol.core.policy.PolicyUser;
import io.meshcontrol.core.state.NetworkSnapshot;
import io.meshcontrol.core.wire.FilterRule;
import io.meshcontrol.core.wire.RawJson;
import io.meshcontrol.core.wire.SSHPolicy;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * The policy compiled against one snapshot's users and nodes, asked in terms of stored nodes: whom a node sees,
 * the packet filter and SSH policy it enforces, its own capabilities. Only approved nodes take part.
 */
public final class AccessRules {

    private final PolicyInventory inventory;
    private final CompiledPolicy compiled;

    private AccessRules(PolicyInventory inventory, CompiledPolicy compiled) {
        this.inventory = inventory;
        this.compiled = compiled;
    }

    public static AccessRules compile(Policy policy, NetworkSnapshot snapshot) {
        return compile(policy, snapshot, "");
    }

    /** @param serverUrl where SSH {@code check} rules send clients */
    public static AccessRules compile(Policy policy, NetworkSnapshot snapshot, String serverUrl) {
        PolicyInventory inventory = inventory(snapshot);
        return new AccessRules(inventory, CompiledPolicy.compile(policy, inventory, serverUrl));
    }

    /** The same rules for another snapshot whose users and nodes look the same to the policy. */
    static AccessRules compile(Policy policy, PolicyInventory inventory, String serverUrl) {
        return new AccessRules(inventory, CompiledPolicy.compile(policy, inventory, serverUrl));
    }

    /**
     * What the policy needs of a snapshot. Approved routes: the node model has none yet, so every node serves none;
     * this is the one place to fill them in from the node.
     */
    static PolicyInventory inventory(NetworkSnapshot snapshot) {
        List<PolicyUser> users = new ArrayList<>(snapshot.users().size());
        for (User user : snapshot.users().values()) {
            users.add(new PolicyUser(user.id(), user.name(), user.email(), user.role()));
        }
        users.sort(Comparator.comparingLong(PolicyUser::id));
        List<PolicyNode> nodes = new ArrayList<>(snapshot.nodes().size());
        for (Node node : snapshot.nodes().values()) {
            if (node.authorized()) {
                nodes.add(new PolicyNode(node.id(), node.givenName(), node.stableId(), node.userId(), node.tags(),
                        node.ipv4(), node.ipv6(), List.of()));
            }
        }
        nodes.sort(Comparator.comparingLong(PolicyNode::id));
        return new PolicyInventory(users, nodes);
    }

    PolicyInventory inventory() {
        return inventory;
    }

    public CompiledPolicy compiled() {
        return compiled;
    }

    /** Whether {@code a} and {@code b} are peers: either may reach the other. */
    public boolean sees(Node a, Node b) {
        return compiled.sees(a.id(), b.id());
    }

    /** The packet filter {@code node} enforces: who may reach it, on which ports. */
    public List<FilterRule> packetFilter(Node node) {
        return compiled.packetFilter(node.id());
    }

    /** The node's Tailscale SSH rules (an empty list when none applies). */
    public SSHPolicy sshPolicy(Node node) {
        return compiled.sshPolicy(node.id());
    }

    /** The node's own capabilities, for its self {@code CapMap}. */
    public Map<String, List<RawJson>> capMap(Node node) {
        return compiled.capMap(node.id());
    }
}
