package io.meshcontrol.core.routes;

import io.meshcontrol.core.model.Node;
import io.meshcontrol.core.model.User;
import io.meshcontrol.core.net.IpPrefix;
import java.util.List;
import java.util.TreeSet;

/**
 * Who may have advertised routes approved without an administrator: the policy's {@code autoApprovers}. This is
 * the seam between routes and the policy: {@link PolicyAutoApprovers} reads the section from the policy text until
 * the policy model carries it.
 */
public interface AutoApprovers {

    /** No auto-approval: every route waits for an administrator. */
    AutoApprovers NONE = new AutoApprovers() {
        @Override
        public boolean approvesRoute(Node node, User owner, IpPrefix route) {
            return false;
        }

        @Override
        public boolean approvesExitNode(Node node, User owner) {
            return false;
        }
    };

    /**
     * Whether {@code node} may have the subnet route {@code route} approved automatically ({@code autoApprovers.routes}:
     * the route lies inside a listed prefix whose approvers include the node's tags or owner).
     *
     * @param owner the node's user, null for a tagged node
     */
    boolean approvesRoute(Node node, User owner, IpPrefix route);

    /** Whether {@code node} may be an exit node without approval ({@code autoApprovers.exitNode}). */
    boolean approvesExitNode(Node node, User owner);

    /**
     * The node's approved routes after auto-approval: what was approved stays (auto-approval never withdraws an
     * approval), and each advertised route these approvers allow is added. An allowed exit route brings its pair.
     */
    default List<IpPrefix> approve(Node node, User owner) {
        TreeSet<IpPrefix> approved = new TreeSet<>(RoutePrefixes.ORDER);
        approved.addAll(node.approvedRoutes());
        for (IpPrefix route : node.advertisedRoutes()) {
            if (approved.contains(route)) {
                continue;
            }
            if (RoutePrefixes.isExit(route) ? approvesExitNode(node, owner) : approvesRoute(node, owner, route)) {
                approved.add(route);
            }
        }
        return RoutePrefixes.withExitPair(approved);
    }
}
