package io.meshcontrol.core.state;

import io.meshcontrol.core.event.MeshEvent;
import io.meshcontrol.core.net.IpPrefix;
import io.meshcontrol.core.routes.ExitNodeSteering;
import io.meshcontrol.core.routes.RoutePrefixes;
import io.meshcontrol.core.routes.RouteTable;
import io.meshcontrol.core.store.ChangeLog;
import io.meshcontrol.core.wire.Hostinfo;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongPredicate;
import org.jdbi.v3.core.Jdbi;

/**
 * Keeps the current {@link RouteTable}: follows the change feed and re-elects the primary routers when a router
 * changes (comes online, goes offline, has routes approved, advertises, is deleted). Each router whose primary routes
 * changed is touched on the feed (a new version of its entry, which is what map streams follow), so peers get a delta
 * for both sides of a failover, and the routers other than the changed node are announced as node events. Subscribes
 * to the feed first, so the table is elected before map streams hear of the change. A change of the global exit nodes
 * also touches every exit node whose view changed, and when every node's own attributes change with it, says so on
 * the feed (rare: an administrator's mark), so every stream sends its self node again.
 * <p>
 * Several instances (PostgreSQL) elect alike: each follows the same node rows and online states on its feed, and a
 * probe's outcome goes to the others through the change log ({@link ChangeLog.Kind#PROBE}). The election writes no
 * row; its webhook events are written by the instance where the change was made, not again by those that follow it.
 */
public final class RouteElection {

    private final Snapshots snapshots;
    private final boolean highAvailability;
    private final Clock clock;
    private final Jdbi jdbi;
    private volatile RouteTable current;
    /** Routers that hold a stream but did not answer their last probe: not healthy until they answer one. */
    private final Set<Long> unanswered = ConcurrentHashMap.newKeySet();

    /** @param highAvailability {@code node.routes.ha}: when off, health is not asked and nothing fails over */
    RouteElection(Jdbi jdbi, Snapshots snapshots, boolean highAvailability, Clock clock) {
        this.jdbi = jdbi;
        this.snapshots = snapshots;
        this.highAvailability = highAvailability;
        this.clock = clock;
        this.current = elect(snapshots.current());
        snapshots.subscribe(this::apply);
    }

    /** Who serves which subnet route now. */
    public RouteTable current() {
        return current;
    }

    /**
     * The outcome of probing a router over its control connection: a router that holds a stream but does not answer
     * is not healthy (its prefixes fail over), and is healthy again once it answers (without taking them back). The
     * election follows on the change feed, as every other change of health does.
     */
    public void probed(long nodeId, boolean answered) {
        if (followProbe(nodeId, answered) && snapshots.changeLog().on()) {
            jdbi.useTransaction(h -> snapshots.logChange(h, ChangeLog.Kind.PROBE, nodeId + ":" + answered));
        }
    }

    /** A probe's outcome, made here or by the instance holding the router's stream; true when health changed. */
    boolean followProbe(long nodeId, boolean answered) {
        boolean changed = answered ? unanswered.remove(nodeId) : unanswered.add(nodeId);
        if (changed) {
            snapshots.touch(nodeId);
        }
        return changed;
    }

    /** The online routers that share a subnet route with another router: the ones worth probing. */
    public Set<Long> sharedRouters() {
        NetworkSnapshot snapshot = snapshots.current();
        Map<IpPrefix, List<Long>> byPrefix = new HashMap<>();
        snapshot.nodes().values().stream().filter(RouteTable::isSubnetRouter).filter(n -> snapshot.isOnline(n.id()))
                .forEach(node -> node.activeRoutes().stream().filter(p -> !RoutePrefixes.isExit(p))
                        .forEach(p -> byPrefix.computeIfAbsent(p, k -> new ArrayList<>()).add(node.id())));
        Set<Long> shared = new HashSet<>();
        byPrefix.values().stream().filter(ids -> ids.size() > 1).forEach(shared::addAll);
        return shared;
    }

    /**
     * A router is healthy while it holds a map stream and has not missed its last probe: the online state of the same
     * snapshot.
     */
    private RouteTable elect(NetworkSnapshot snapshot) {
        LongPredicate healthy = highAvailability ? id -> snapshot.isOnline(id) && !unanswered.contains(id) : id -> true;
        return RouteTable.elect(snapshot.nodes().values(), healthy, node -> Hostinfo.homeRegion(node.hostinfo()),
                current == null ? RouteTable.EMPTY : current);
    }

    private void apply(StateChange change) {
        if (!(change instanceof StateChange.NodeChanged nodeChange)) {
            return; // users, the policy and the map context elect nobody
        }
        long id = nodeChange.nodeId();
        NetworkSnapshot snapshot = snapshots.current();
        if (!snapshot.isOnline(id)) {
            unanswered.remove(id); // a new stream starts with a clean record
        }
        boolean router = current.isPrimary(id) || current.exits().marked().containsKey(id)
                || snapshot.node(id).filter(node -> RouteTable.isSubnetRouter(node) || node.isGlobalExitNode())
                        .isPresent();
        if (!router) {
            return; // most changes are about nodes that route nothing: no election
        }
        RouteTable next = elect(snapshot);
        if (next.equals(current)) {
            return;
        }
        RouteTable before = current;
        Set<Long> changed = next.changedRouters(before);
        if (!next.exits().equals(before.exits())) {
            // A mark changes what peers see of other exit nodes (rule 1 and 3) too.
            snapshot.nodes().values().stream().filter(ExitNodeSteering::concerns)
                    .filter(node -> next.exits().seenDifferently(node, before.exits()))
                    .forEach(node -> changed.add(node.id()));
        }
        current = next; // before touching: the touches come back here and must find nothing to do
        if (!next.exits().selfAttributes().equals(before.exits().selfAttributes())) {
            snapshots.nodeAttributesChanged(); // every node's own attributes (rules 2 and 3) changed
        }
        // A router whose routes changed gets a new snapshot version, so that peers are sent it again with the new
        // table (the changed node too: its change may have been sent before this election).
        changed.forEach(snapshots::touch);
        changed.remove(id); // webhooks hear about the changed node from its own change
        if (snapshots.fromAnotherInstance()) {
            return; // the instance that made the change wrote these events
        }
        for (long other : changed) {
            snapshot.node(other).ifPresent(node -> snapshots.publish(
                    new MeshEvent.NodeChanged(clock.instant(), node, "serving routes changed")));
        }
    }
}
