package io.meshcontrol.core.state;

import io.meshcontrol.core.event.EventBus;
import io.meshcontrol.core.event.MeshEvent;
import io.meshcontrol.core.model.Node;
import io.meshcontrol.core.model.User;
import io.meshcontrol.core.store.NodeStore;
import io.meshcontrol.core.store.UserStore;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import org.jdbi.v3.core.Jdbi;

/**
 * Keeps the current {@link NetworkSnapshot}. Loaded once, then updated in place of a copy:
 * <ul>
 *   <li>node rows from {@link NodeStore} as they are committed (its commit listener runs inside the serialized write
 *       transaction, so rows arrive in commit order and need no re-read);</li>
 *   <li>online state from {@link Presence};</li>
 *   <li>users from their change events (rare), re-reading the row.</li>
 * </ul>
 * Each change that alters the snapshot is passed to the {@linkplain #subscribe listeners} with the snapshot it made,
 * in version order, so a listener can tell exactly which changes a snapshot contains. The snapshot is updated before
 * the change's event is published: event subscribers always see it.
 */
public final class Snapshots implements NodeStore.CommitListener {

    /** What changed and the snapshot that has it: one node (row or online state) or one user. */
    public record Change(NetworkSnapshot snapshot, Kind kind, long id) {
        public enum Kind { NODE, USER }
    }

    private static final System.Logger LOG = System.getLogger(Snapshots.class.getName());

    private final Jdbi jdbi;
    private final UserStore users;
    private final List<Consumer<Change>> listeners = new CopyOnWriteArrayList<>();
    private volatile NetworkSnapshot current;

    Snapshots(Jdbi jdbi, NodeStore nodes, UserStore users, EventBus events) {
        this.jdbi = jdbi;
        this.users = users;
        this.current = jdbi.withHandle(h -> NetworkSnapshot.of(0, nodes.all(h), users.all(h)));
        nodes.onCommit(this);
        events.subscribe(this::apply);
    }

    public NetworkSnapshot current() {
        return current;
    }

    /**
     * Calls {@code listener} with every change from now on, on the changing thread while the snapshot is locked: it
     * must only take note (enqueue), never block or write.
     */
    public Runnable subscribe(Consumer<Change> listener) {
        listeners.add(listener);
        return () -> listeners.remove(listener);
    }

    @Override
    public synchronized void written(Node node) {
        publish(current.withNode(node, false), Change.Kind.NODE, node.id());
    }

    @Override
    public synchronized void lastSeenWritten(Node node) {
        publish(current.withNode(node, true), Change.Kind.NODE, node.id());
    }

    @Override
    public synchronized void deleted(long nodeId) {
        publish(current.withoutNode(nodeId), Change.Kind.NODE, nodeId);
    }

    /**
     * A new version of the node's entry without a new row: what peers see of it changed for another reason
     * (the routes it serves, re-elected by {@link RouteElection}).
     */
    public synchronized void touch(long nodeId) {
        publish(current.withTouched(nodeId), Change.Kind.NODE, nodeId);
    }

    /** Called by {@link Presence} when a node's first map stream opens or its last one ends. */
    synchronized void online(long nodeId, boolean online) {
        publish(current.withOnline(nodeId, online), Change.Kind.NODE, nodeId);
    }

    private void apply(MeshEvent event) {
        switch (event) {
            case MeshEvent.UserCreated e -> refreshUser(e.user().id());
            case MeshEvent.UserChanged e -> refreshUser(e.user().id());
            case MeshEvent.UserRoleUpdated e -> refreshUser(e.user().id());
            case MeshEvent.UserDeleted e -> refreshUser(e.user().id());
            case MeshEvent.NodeEvent e -> {
                // node rows arrive from the store's commit listener, before their events
            }
            case MeshEvent.PolicyUpdated e -> {
                // the policy is held by Policies; nothing in the snapshot changes
            }
        }
    }

    private synchronized void refreshUser(long id) {
        Optional<User> fresh = jdbi.withHandle(h -> users.byId(h, id));
        publish(fresh.map(current::withUser).orElseGet(() -> current.withoutUser(id)), Change.Kind.USER, id);
    }

    private void publish(NetworkSnapshot next, Change.Kind kind, long id) {
        if (next == current) {
            return;
        }
        current = next;
        Change change = new Change(next, kind, id);
        for (Consumer<Change> listener : listeners) {
            try {
                listener.accept(change);
            } catch (RuntimeException e) {
                // the write is committed already: a listener's failure must not make it look failed
                LOG.log(System.Logger.Level.ERROR, "snapshot listener failed on " + kind + " " + id, e);
            }
        }
    }
}
