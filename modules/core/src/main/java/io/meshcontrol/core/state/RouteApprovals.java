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
import io.meshcontrol.core.apps.AppConnectors;
import io.meshcontrol.core.store.AppStore;
import io.meshcontrol.core.store.AuditStore;
import io.meshcontrol.core.store.NodeStore;
import io.meshcontrol.core.store.UserStore;
import io.meshcontrol.core.wire.Hostinfo;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;

/**
 * Route approval: administrators set a node's approved routes, and the policy's auto-approvers approve advertised
 * routes when a node advertises them, is tagged, or the policy changes. Auto-approval by the policy only ever adds: an
 * approval is withdrawn by an administrator alone. Apps approve what their connectors learn (single addresses, prefixes
 * inside static routes) and drop those approvals again once the connector withdraws the route or serves no app.
 */
public final class RouteApprovals {

    public static final String WRITE_SCOPE = "devices:routes";
    public static final String READ_SCOPE = "devices:routes:read";

    private final Jdbi jdbi;
    private final Writer writer;
    private final Snapshots snapshots;
    private final NodeStore nodes;
    private final UserStore users;
    private final Policies policies;
    private final Apps apps;
    private final AppStore appStore;
    private final Clock clock;
    private final AuditStore audit = new AuditStore();

    RouteApprovals(Jdbi jdbi, Writer writer, Snapshots snapshots, NodeStore nodes, UserStore users, Policies policies, Apps apps,
            AppStore appStore, Clock clock) {
        this.jdbi = jdbi;
        this.writer = writer;
        this.snapshots = snapshots;
        this.nodes = nodes;
        this.users = users;
        this.policies = policies;
        this.apps = apps;
        this.appStore = appStore;
        this.clock = clock;
    }

    /** The node, for reading its routes. */
    public Node get(Caller caller, long id) {
        caller.require(READ_SCOPE);
        return jdbi.withHandle(h -> nodes.byId(h, id)).orElseThrow(() -> unknown(id));
    }

    /**
     * Replaces the node's approved routes; an empty list clears them. Either exit route approves both. A route
     * need not be advertised yet: it takes effect when the node advertises it. Approving what is approved already
     * changes nothing.
     */
    public Node setApproved(Caller caller, long id, List<String> routes) {
        return writer.change(caller, WRITE_SCOPE, (h, now) -> {
            if (routes == null) {
                throw MeshException.invalid("approving routes needs the field \"routes\" (an empty list clears them)");
            }
            Limits.count("routes", routes, Limits.ROUTES);
            List<IpPrefix> approved = RoutePrefixes.withExitPair(RoutePrefixes.parse(routes));
            Node node = nodes.byId(h, id).orElseThrow(() -> unknown(id));
            if (new HashSet<>(node.approvedRoutes()).equals(new HashSet<>(approved))) {
                return node; // approved already: no write, no audit entry, nothing for the map streams
            }
            Node updated = node.withApprovedRoutes(approved);
            nodes.update(h, updated);
            snapshots.publishOnCommit(h, new MeshEvent.NodeChanged(now, updated, "routes approved"));
            audit.append(h, caller.audited(now, "node.routes", Long.toString(id), Nodes.changes(node, updated)));
            return updated;
        });
    }

    /**
     * Marks the node as a global exit node, or clears the mark. Only a node that advertises an exit route may be
     * marked: a mark takes {@code suggest-exit-node} from every other exit node. Marking approves both exit routes
     * and keeps the priority unless one is given; clearing resets the priority to 0 and leaves the approved routes as
     * they are.
     *
     * @param enabled {@code false} clears the mark; null or {@code true} marks
     * @param priority 0 or more, higher preferred; null keeps the current one (0 for a node not marked)
     */
    public Node setGlobalExitNode(Caller caller, long id, Boolean enabled, Integer priority) {
        boolean mark = enabled == null || enabled;
        return writer.change(caller, WRITE_SCOPE, (h, now) -> {
            if (priority != null && !mark) {
                throw MeshException.invalid("\"priority\" applies to a marked node; clearing the mark resets it to 0");
            }
            if (priority != null && priority < 0) {
                throw MeshException.invalid("\"priority\" must be 0 or more, got " + priority);
            }
            Node node = nodes.byId(h, id).orElseThrow(() -> unknown(id));
            Node updated;
            if (mark && node.advertisedRoutes().stream().noneMatch(RoutePrefixes::isExit)) {
                throw MeshException.invalid("node " + node.givenName() + " advertises no exit route (0.0.0.0/0 or "
                        + "::/0), so it cannot be a global exit node; run tailscale set --advertise-exit-node on it "
                        + "first");
            }
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
            snapshots.publishOnCommit(h, new MeshEvent.NodeChanged(now, updated,
                    mark ? "marked as global exit node" : "global exit node mark cleared"));
            audit.append(h, caller.audited(now, "node.globalexit", Long.toString(id), Nodes.changes(node, updated)));
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
        node = withAppRoutes(h, node);
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

    /**
     * {@code node} with the routes its apps approve added (and noted as learned), and the learned routes its apps no
     * longer approve (withdrawn by the connector, or no app left for it) dropped; exit routes are never touched.
     */
    private Node withAppRoutes(Handle h, Node node) {
        AppConnectors current = apps.current();
        boolean connector = !current.isEmpty() && AppConnectors.runsConnector(node);
        if (!connector && node.approvedRoutes().stream().allMatch(RoutePrefixes::isExit)) {
            return node; // no app can have approved anything here: costs no query
        }
        Set<IpPrefix> approvable = current.approvable(node);
        Set<String> learned = appStore.learnedRoutes(h, node.id());
        Set<String> keep = new LinkedHashSet<>();
        List<IpPrefix> approved = new ArrayList<>();
        for (IpPrefix route : node.approvedRoutes()) {
            boolean wasLearned = learned.contains(route.toString());
            if (!wasLearned || approvable.contains(route)) {
                approved.add(route);
            }
            if (wasLearned && approvable.contains(route)) {
                keep.add(route.toString());
            }
        }
        for (IpPrefix route : approvable) {
            if (!node.approvedRoutes().contains(route)) {
                approved.add(route);
                keep.add(route.toString());
            }
        }
        if (!keep.equals(learned)) {
            appStore.setLearnedRoutes(h, node.id(), keep);
        }
        return approved.size() == node.approvedRoutes().size() && approved.containsAll(node.approvedRoutes())
                ? node : node.withApprovedRoutes(RoutePrefixes.sorted(approved));
    }

    /**
     * After the apps changed, on the thread that changed them: every connector, and every node holding learned
     * routes, has its app approvals brought up to date, each node in a change of its own.
     */
    void applyApps() {
        Set<Long> candidates = new LinkedHashSet<>(jdbi.withHandle(appStore::nodesWithLearnedRoutes));
        snapshots.current().nodes().values().stream().filter(AppConnectors::runsConnector)
                .forEach(node -> candidates.add(node.id()));
        for (long id : candidates) {
            jdbi.useTransaction(h -> {
                Node node = nodes.byId(h, id).orElse(null);
                Node updated = node == null ? null : withAppRoutes(h, node);
                if (updated != node) {
                    nodes.update(h, updated);
                    snapshots.publishOnCommit(h, new MeshEvent.NodeChanged(clock.instant(), updated,
                            "app routes approved"));
                }
            });
        }
    }

    private static MeshException unknown(long id) {
        return MeshException.notFound("no node " + id);
    }
}
