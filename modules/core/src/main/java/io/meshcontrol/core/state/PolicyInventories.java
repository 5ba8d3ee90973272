package io.meshcontrol.core.state;

import io.meshcontrol.core.model.Node;
import io.meshcontrol.core.model.User;
import io.meshcontrol.core.policy.PolicyInventory;
import io.meshcontrol.core.policy.PolicyNode;
import io.meshcontrol.core.policy.PolicyUser;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/** What the policy sees of a snapshot: every user, and the approved nodes with their addresses and routes. */
public final class PolicyInventories {

    private PolicyInventories() {
    }

    public static PolicyInventory of(NetworkSnapshot snapshot) {
        List<PolicyUser> users = new ArrayList<>(snapshot.users().size());
        for (User user : snapshot.users().values()) {
            users.add(new PolicyUser(user.id(), user.name(), user.email(), user.role()));
        }
        users.sort(Comparator.comparingLong(PolicyUser::id));
        List<PolicyNode> nodes = new ArrayList<>(snapshot.nodes().size());
        for (Node node : snapshot.nodes().values()) {
            if (node.authorized()) {
                nodes.add(new PolicyNode(node.id(), node.givenName(), node.stableId(), node.userId(), node.tags(),
                        node.ipv4(), node.ipv6(), approvedRoutes(node)));
            }
        }
        nodes.sort(Comparator.comparingLong(PolicyNode::id));
        return new PolicyInventory(users, nodes);
    }

    /**
     * The routes the node serves (subnets, and {@code 0.0.0.0/0}/{@code ::/0} for an exit node). The node model has
     * no approved routes yet, so none: this is the one place to take them from the node when it has them.
     */
    public static List<String> approvedRoutes(Node node) {
        return List.of();
    }
}
