package io.meshcontrol.core.state;

import io.meshcontrol.core.event.EventBus;
import io.meshcontrol.core.event.MeshEvent;
import io.meshcontrol.core.routes.RouteTable;
import java.util.Set;
import java.util.function.LongPredicate;

/**
 * Keeps the current {@link RouteTable}: re-elects the primary routers when a router changes (comes online, goes
 * offline, has routes approved, advertises, is deleted) and announces each other router whose primary routes
 * changed as a node change (and touches it in the snapshot, which is what map streams follow), so peers get a
 * delta for both sides of a failover. Subscribes after the snapshot, so
 * it elects from the state the event left.
 */
public final class RouteElection {

    private final Snapshots snapshots;
    private final EventBus events;
    private final LongPredicate healthy;
    private volatile RouteTable current;

    /** @param highAvailability {@code node.routes.ha}: when off, health is not asked and nothing fails over */
    RouteElection(Snapshots snapshots, Presence presence, EventBus events, boolean highAvailability) {
        this.snapshots = snapshots;
        this.events = events;
        this.healthy = highAvailability ? presence::isOnline : id -> true;
        this.current = RouteTable.elect(snapshots.current().nodes().values(), healthy);
        events.subscribe(this::apply);
    }

    /** Who serves which subnet route now. */
    public RouteTable current() {
        return current;
    }

    private synchronized void apply(MeshEvent event) {
        if (!(event instanceof MeshEvent.NodeEvent nodeEvent)) {
            return;
        }
        long id = nodeEvent.node().id();
        NetworkSnapshot snapshot = snapshots.current();
        boolean router = current.isPrimary(id) || snapshot.node(id).filter(RouteTable::isSubnetRouter).isPresent();
        if (!router) {
            return; // most events are about nodes that route nothing: no election
        }
        RouteTable next = RouteTable.elect(snapshot.nodes().values(), healthy);
        if (next.equals(current)) {
            return;
        }
        Set<Long> changed = next.changedRouters(current);
        current = next; // before announcing: the announcements re-enter here and must find nothing to do
        // Map streams follow the snapshot: a router whose routes changed gets a new snapshot version, so that
        // peers are sent it again with the new table (the event's own node too: its change may have been sent
        // before this election).
        changed.forEach(snapshots::touch);
        changed.remove(id); // webhooks already hear about the node the event is about
        for (long other : changed) {
            snapshot.node(other).ifPresent(node -> events.publish(
                    new MeshEvent.NodeChanged(event.at(), node, "serving routes changed")));
        }
    }
}
