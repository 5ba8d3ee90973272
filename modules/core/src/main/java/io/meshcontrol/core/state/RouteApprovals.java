package io.meshcontrol.core.state;

import io.meshcontrol.core.Limits;
import io.meshcontrol.core.MeshException;
import io.meshcontrol.core.auth.Caller;
import io.meshcontrol.core.event.MeshEvent;
import io.meshcontrol.core.model.Node;
import io.meshcontrol.core.model.User;
import io.meshcontrol.core.net.IpPrefix;
import io.meshcontrol.core.policy.AutoApproval;
import io.meshcontrol.core.routes.RoutePrefixes;
import io.meshcontrol.core.store.NodeStore;
import io.meshcontrol.core.store.UserStore;
import io.meshcontrol.core.wire.Hostinfo;
import java.time.Clock;
import java.util.HashSet;
import java.util.List;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;

/**
 * Route approval: administrators set a node's approved routes, and the policy's auto-approvers approve advertised
 * routes when a node advertises them, is tagged, or the policy changes. Auto-approval only ever adds: an approval
 * is withdrawn by an administrator alone.
 */
public final class RouteApprovals {

    public static final String WRITE_SCOPE = "devices:routes";
    public static final String READ_SCOPE = "devices:routes:read";

    private final Jdbi jdbi;
    private final Snapshots snapshots;
    private final NodeStore nodes;
    private final UserStore users;
    private final Policies policies;
    private final Clock clock;

    RouteApprovals(Jdbi jdbi, Snapshots snapshots, NodeStore nodes, UserStore users, Policies policies, Clock clock) {
        this.jdbi = jdbi;
        this.snapshots = snapshots;
        this.nodes = nodes;
        this.users = users;
        this.policies = policies;
        this.clock = clock;
    }

    /** The node, for reading its routes. */
    public Node get(Caller caller, long id) {
        caller.require(READ_SCOPE);
        return jdbi.withHandle(h -> nodes.byId(h, id)).orElseThrow(() -> unknown(id));
    }

    /**
     * Replaces the node's approved routes; an empty list clears them. Either exit route approves both. A route
     * need not be advertised yet: it takes effect when the node advertises it.
     */
    public Node setApproved(Caller caller, long id, List<String> routes) {
        caller.require(WRITE_SCOPE);
        if (routes == null) {
            throw MeshException.invalid("approving routes needs the field \"routes\" (an empty list clears them)");
        }
        Limits.count("routes", routes, Limits.ROUTES);
        List<IpPrefix> approved = RoutePrefixes.withExitPair(RoutePrefixes.parse(routes));
        return jdbi.inTransaction(h -> {
            Node node = nodes.byId(h, id).orElseThrow(() -> unknown(id));
            Node updated = node.withApprovedRoutes(approved);
            nodes.update(h, updated);
            snapshots.publishOnCommit(h, new MeshEvent.NodeChanged(clock.instant(), updated, "routes approved"));
            return updated;
        });
    }

    /**
     * Marks the node as a global exit node, or clears the mark. Marking approves both exit routes (they take effect
     * once the node advertises them) and keeps the priority unless one is given; clearing resets the priority to 0
     * and leaves the approved routes as they are.
     *
     * @param enabled {@code false} clears the mark; null or {@code true} marks
     * @param priority 0 or more, higher preferred; null keeps the current one (0 for a node not marked)
     */
    public Node setGlobalExitNode(Caller caller, long id, Boolean enabled, Integer priority) {
        caller.require(WRITE_SCOPE);
        boolean mark = enabled == null || enabled;
        if (priority != null && !mark) {
            throw MeshException.invalid("\"priority\" applies to a marked node; clearing the mark resets it to 0");
        }
        if (priority != null && priority < 0) {
            throw MeshException.invalid("\"priority\" must be 0 or more, got " + priority);
        }
        return jdbi.inTransaction(h -> {
            Node node = nodes.byId(h, id).orElseThrow(() -> unknown(id));
            Node updated;
            if (mark) {
                int kept = node.isGlobalExitNode() ? node.globalExitPriority() : 0;
                List<IpPrefix> approved = new java.util.ArrayList<>(node.approvedRoutes());
                approved.addAll(RoutePrefixes.EXIT_ROUTES);
                updated = node.withApprovedRoutes(RoutePrefixes.sorted(approved))
                        .withGlobalExitPriority(priority == null ? kept : priority);
            } else {
                updated = node.withGlobalExitPriority(null);
            }
            if (updated.equals(node)) {
                return node;
            }
            nodes.update(h, updated);
            snapshots.publishOnCommit(h, new MeshEvent.NodeChanged(clock.instant(), updated,
                    mark ? "marked as global exit node" : "global exit node mark cleared"));
            return updated;
        });
    }

    /** The routes a client advertises in the Hostinfo it sent (JSON as stored). */
    static List<IpPrefix> advertisedIn(String hostinfo) {
        return hostinfo == null || hostinfo.isBlank() ? List.of() : Hostinfo.parse(hostinfo).fields().routableIps();
    }

    /**
     * {@code node} with the advertised routes the auto-approvers allow added to its approvals; for callers that are
     * about to write the node in their transaction, so that advertising and auto-approval are one change.
     */
    Node autoApprove(Handle h, Node node) {
        if (new HashSet<>(node.approvedRoutes()).containsAll(node.advertisedRoutes())) {
            return node; // nothing waits for approval: the common case costs no policy lookup
        }
        User owner = node.userId() == null ? null : users.byId(h, node.userId()).orElse(null);
        AutoApproval approval = AutoApproval.of(policies.policy(), PolicyInventories.node(node),
                owner == null ? null : PolicyInventories.user(owner));
        List<IpPrefix> approved = approval.approve(node.advertisedRoutes(), node.approvedRoutes());
        return new HashSet<>(approved).equals(new HashSet<>(node.approvedRoutes())) ? node
                : node.withApprovedRoutes(approved);
    }

    /**
     * After a policy change, on the thread that made it (so that the change returns with the new approvals written):
     * approves what the new auto-approvers allow of every node's waiting routes, each node in a change of its own.
     */
    void approveAllowedRoutes() {
        // From the snapshot, which holds every committed row: a policy save must not read all nodes from the database
        // while the map streams wait for the new policy. Each candidate is read again in its own transaction.
        List<Node> waiting = snapshots.current().nodes().values().stream()
                .filter(node -> !new HashSet<>(node.approvedRoutes()).containsAll(node.advertisedRoutes()))
                .toList();
        for (Node candidate : waiting) {
            jdbi.useTransaction(h -> {
                Node node = nodes.byId(h, candidate.id()).orElse(null);
                Node updated = node == null ? null : autoApprove(h, node);
                if (updated != node) {
                    nodes.update(h, updated);
                    snapshots.publishOnCommit(h, new MeshEvent.NodeChanged(clock.instant(), updated,
                            "routes auto-approved"));
                }
            });
        }
    }

    private static MeshException unknown(long id) {
        return MeshException.notFound("no node " + id);
    }
}
