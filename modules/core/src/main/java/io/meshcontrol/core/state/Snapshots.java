package io.meshcontrol.core.state;

import io.meshcontrol.core.event.EventBus;
import io.meshcontrol.core.event.MeshEvent;
import io.meshcontrol.core.model.AuditEntry;
import io.meshcontrol.core.model.Node;
import io.meshcontrol.core.model.User;
import io.meshcontrol.core.netmap.context.MapContext;
import io.meshcontrol.core.policy.Policy;
import io.meshcontrol.core.store.ChangeLog;
import io.meshcontrol.core.store.CommitListener;
import io.meshcontrol.core.store.NodeStore;
import io.meshcontrol.core.store.UserStore;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Optional;
import java.util.Queue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;

/**
 * The change feed: keeps the current {@link NetworkSnapshot} and hands every change of the network's state, in the
 * order the changes took effect, to its {@linkplain #subscribe listeners} (map streaming, the route election). It is
 * the only way a change reaches them:
 * <ul>
 *   <li>node and user rows as their transactions commit ({@link NodeStore} and {@link UserStore} tell it from inside
 *       the serialized write transaction, so rows arrive in commit order, need no re-read, and a rolled-back write
 *       never arrives);</li>
 *   <li>online state from {@link Presence}, a new policy from {@link Policies}, routes re-elected by
 *       {@link RouteElection} ({@link #touch}, and every node's own attributes with a global exit node's mark), and
 *       a new map context from {@link MapContextState}, the one place that holds it.</li>
 * </ul>
 * Services publish events through {@link #publishOnCommit}, in the transaction of the change: the event's webhook
 * deliveries are written in that transaction ({@link WebhookOutbox}), and the event goes out on the {@link EventBus}
 * (in-process observers) once the change is committed and on the feed, exactly once, and never for a write that
 * rolled back.
 * <p>
 * Where several instances share the database (PostgreSQL), each change another instance must reflect is also appended
 * to the {@link ChangeLog} in its transaction ({@link #logChange}); the {@link ChangeFollower} of every other instance
 * reads it again and puts it on that instance's feed ({@code follow*} methods), so its map streams follow too.
 */
public final class Snapshots implements CommitListener {

    private static final System.Logger LOG = System.getLogger(Snapshots.class.getName());

    private final EventBus events;
    private final WebhookOutbox outbox;
    private final List<Consumer<StateChange>> listeners = new CopyOnWriteArrayList<>();
    /** Changes made while a change was being delivered (by a listener): delivered after it, in order. */
    private final Queue<StateChange> undelivered = new ArrayDeque<>();
    private boolean delivering;
    private volatile NetworkSnapshot current;
    private final ChangeLog changeLog;
    /** True on the thread applying another instance's changes, while it does. */
    private static final ThreadLocal<Boolean> FOLLOWING = ThreadLocal.withInitial(() -> false);

    Snapshots(Jdbi jdbi, NodeStore nodes, UserStore users, EventBus events, WebhookOutbox outbox,
            ChangeLog changeLog) {
        this.events = events;
        this.outbox = outbox;
        this.changeLog = changeLog;
        this.current = jdbi.withHandle(h -> NetworkSnapshot.of(0, nodes.all(h), users.all(h)));
        nodes.onCommit(this);
        users.onCommit(this);
        nodes.logChangesTo(changeLog);
        users.logChangesTo(changeLog);
    }

    /** Appends a row to the change log in the transaction of {@code handle} (nothing on SQLite). */
    void logChange(Handle handle, ChangeLog.Kind kind, String subject) {
        changeLog.append(handle, kind, subject);
    }

    /** The change log changes are appended to: {@link ChangeLog#OFF} on SQLite. */
    ChangeLog changeLog() {
        return changeLog;
    }

    /**
     * Whether the change being delivered on this thread came from another instance (the {@link ChangeFollower}
     * applies it): that instance published its events and wrote its deliveries, so listeners must not again.
     */
    boolean fromAnotherInstance() {
        return FOLLOWING.get();
    }

    /** Runs {@code apply} (another instance's changes) with {@link #fromAnotherInstance()} true. */
    static void followingAnotherInstance(Runnable apply) {
        FOLLOWING.set(true);
        try {
            apply.run();
        } finally {
            FOLLOWING.set(false);
        }
    }

    /** Another instance wrote node {@code nodeId}: {@code row} is it as read now, empty when it is gone. */
    synchronized void followNode(long nodeId, Optional<Node> row, boolean lastSeenOnly) {
        Optional<Node> held = current.node(nodeId);
        if (row.isEmpty()) {
            if (held.isPresent()) {
                nodeDeleted(nodeId);
            }
        } else if (!row.equals(held)) {
            nodeChanged(current.withNode(row.get(), lastSeenOnly), nodeId);
        }
    }

    /** Another instance wrote user {@code userId}: {@code row} is it as read now, empty when it is gone. */
    synchronized void followUser(long userId, Optional<User> row) {
        Optional<User> held = current.user(userId);
        if (row.isEmpty()) {
            if (held.isPresent()) {
                userDeleted(userId);
            }
        } else if (!row.equals(held)) {
            userWritten(row.get());
        }
    }

    public NetworkSnapshot current() {
        return current;
    }

    /**
     * Calls {@code listener} with every change from now on, in order, on the changing thread while the feed is locked
     * (often inside the write transaction): it must only take note (enqueue), never block or write. A change a
     * listener makes reaches every listener after the one it reacted to.
     */
    public Runnable subscribe(Consumer<StateChange> listener) {
        listeners.add(listener);
        return () -> listeners.remove(listener);
    }

    @Override
    public synchronized void nodeWritten(Node node) {
        nodeChanged(current.withNode(node, false), node.id());
    }

    @Override
    public synchronized void nodeLastSeenWritten(Node node) {
        nodeChanged(current.withNode(node, true), node.id());
    }

    @Override
    public synchronized void nodeDeleted(long nodeId) {
        nodeChanged(current.withoutNode(nodeId), nodeId);
    }

    @Override
    public synchronized void userWritten(User user) {
        userChanged(current.withUser(user), user.id());
    }

    @Override
    public synchronized void userDeleted(long userId) {
        userChanged(current.withoutUser(userId), userId);
    }

    /**
     * A new version of the node's entry without a new row: what peers see of it changed for another reason
     * (the routes it serves, re-elected by {@link RouteElection}).
     */
    public synchronized void touch(long nodeId) {
        nodeChanged(current.withTouched(nodeId), nodeId);
    }

    /**
     * The map context changed to {@code context}: every map stream sends it again. Called by {@link MapContextState}
     * after putting it in place.
     */
    synchronized void mapContextChanged(MapContext context) {
        deliver(new StateChange.MapContextChanged(current, context));
    }

    /** Every node's own attributes changed (called by {@link RouteElection}): every map stream sends them again. */
    synchronized void nodeAttributesChanged() {
        deliver(new StateChange.NodeAttributesChanged(current));
    }

    /** Called by {@link Writer} with each audit entry of a change once it has committed. */
    synchronized void recorded(AuditEntry entry) {
        deliver(new StateChange.Recorded(current, entry));
    }

    /** Called by {@link Webhooks} when a delivery to endpoint {@code webhookId} is in its history. */
    synchronized void deliveryFinished(String webhookId) {
        deliver(new StateChange.DeliveryFinished(current, webhookId));
    }

    /** Called by {@link Presence} when a node's first map stream opens or its last one ends. */
    synchronized void online(long nodeId, boolean online) {
        nodeChanged(current.withOnline(nodeId, online), nodeId);
    }

    /** Called by {@link Policies} once {@code policy} is in force (for a saved policy: once the save committed). */
    synchronized void policyChanged(Policy policy) {
        deliver(new StateChange.PolicyChanged(current, policy));
    }

    /**
     * Writes {@code event}'s webhook deliveries in the transaction of {@code handle}, and publishes it on the event bus
     * once that has committed, after the feed has the transaction's changes; never when it rolls back.
     */
    void publishOnCommit(Handle handle, MeshEvent event) {
        CommitListener.requireTransaction(handle);
        outbox.write(handle, event);
        handle.afterCommit(() -> events.publish(event));
    }

    /**
     * Writes {@code event}'s webhook deliveries and publishes it now, for a change that is not written to the database
     * (presence, the policy file, a report).
     */
    void publish(MeshEvent event) {
        outbox.writeAlone(event);
        events.publish(event);
    }

    private void nodeChanged(NetworkSnapshot next, long id) {
        if (next != current) {
            current = next;
            deliver(new StateChange.NodeChanged(next, id));
        }
    }

    private void userChanged(NetworkSnapshot next, long id) {
        if (next != current) {
            current = next;
            deliver(new StateChange.UserChanged(next, id));
        }
    }

    /** Called with the lock held. */
    private void deliver(StateChange change) {
        undelivered.add(change);
        if (delivering) {
            return; // a listener's own change: the loop below delivers it after the one in hand
        }
        delivering = true;
        try {
            for (StateChange next = undelivered.poll(); next != null; next = undelivered.poll()) {
                for (Consumer<StateChange> listener : listeners) {
                    try {
                        listener.accept(next);
                    } catch (RuntimeException e) {
                        // the write is committed already: a listener's failure must not make it look failed
                        LOG.log(System.Logger.Level.ERROR, "change feed listener failed on " + next, e);
                    }
                }
            }
        } finally {
            delivering = false;
        }
    }
}
