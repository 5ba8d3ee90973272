package io.meshcontrol.core.policy;

import java.util.List;

/**
 * The users and machines a policy is compiled against: one consistent moment of the network (the server builds it
 * from its snapshot, {@code svc policy simulate} from a file). Only machines that take part in the network belong
 * here (approved ones); the compiler knows no others.
 */
public record PolicyInventory(List<PolicyUser> users, List<PolicyNode> nodes) {

    public PolicyInventory {
        users = List.copyOf(users);
        nodes = List.copyOf(nodes);
    }
}
