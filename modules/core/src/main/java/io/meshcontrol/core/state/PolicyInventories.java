package io.meshcontrol.core.state;

import io.meshcontrol.core.apps.AppConnectors;
import io.meshcontrol.core.model.Node;
import io.meshcontrol.core.model.User;
import io.meshcontrol.core.net.IpPrefix;
import io.meshcontrol.core.policy.PolicyInventory;
import io.meshcontrol.core.policy.PolicyNode;
import io.meshcontrol.core.policy.PolicyUser;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;

/** What the policy sees of a snapshot: every user, and the admitted (approved, not suspended) nodes with their addresses and routes. */
public final class PolicyInventories {

    private PolicyInventories() {
    }

    public static PolicyInventory of(NetworkSnapshot snapshot) {
        List<PolicyUser> users = of(snapshot.users().values());
        List<PolicyNode> nodes = new ArrayList<>(snapshot.nodes().size());
        for (Node node : snapshot.nodes().values()) {
            if (node.admitted()) {
                nodes.add(node(node));
            }
        }
        nodes.sort(Comparator.comparingLong(PolicyNode::id));
        return new PolicyInventory(users, nodes);
    }

    /** The users as the policy sees them, in id order. */
    public static List<PolicyUser> of(Collection<User> all) {
        List<PolicyUser> users = new ArrayList<>(all.size());
        for (User user : all) {
            users.add(user(user));
        }
        users.sort(Comparator.comparingLong(PolicyUser::id));
        return users;
    }

    /** A user as the policy sees it. */
    public static PolicyUser user(User user) {
        return new PolicyUser(user.id(), user.name(), user.email(), user.role());
    }

    /** A node as the policy sees it. */
    public static PolicyNode node(Node node) {
        return new PolicyNode(node.id(), node.givenName(), node.stableId(), node.userId(), node.tags(), node.ipv4(),
                node.ipv6(), approvedRoutes(node), AppConnectors.runsConnector(node));
    }

    /**
     * The routes the node may serve (subnets, and {@code 0.0.0.0/0}/{@code ::/0} for an exit node): advertised and
     * approved. Every router of a subnet gets its rules, primary or not, as the vendor does.
     */
    public static List<String> approvedRoutes(Node node) {
        return node.activeRoutes().stream().map(IpPrefix::toString).toList();
    }
}
