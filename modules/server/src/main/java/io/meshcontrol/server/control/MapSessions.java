package io.meshcontrol.server.control;

import io.meshcontrol.core.event.EventBus;
import io.meshcontrol.core.event.MeshEvent;
import io.meshcontrol.core.netmap.ChangeSet;
import java.time.Duration;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The open map streams, one per node (a new stream replaces an older one of the same node), and the
 * change batcher: events are coalesced for {@link #BATCH_WINDOW} and each stream then gets one
 * {@link ChangeSet} to turn into its own delta.
 */
public final class MapSessions implements AutoCloseable {

    /** Long enough to merge a burst (a registration is several events), short against the client's patience. */
    public static final Duration BATCH_WINDOW = Duration.ofMillis(50);

    private final Map<Long, MapSession> byNode = new ConcurrentHashMap<>();
    private final ScheduledExecutorService flusher = Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform().name("map-batcher").daemon().factory());
    private final Runnable unsubscribe;
    private Set<Long> pendingNodes = new HashSet<>();
    private Set<Long> pendingUsers = new HashSet<>();
    private boolean pendingEverything;
    private boolean pendingPolicy;
    private boolean flushScheduled;
    private boolean closed;

    public MapSessions(EventBus events) {
        this.unsubscribe = events.subscribe(this::collect);
    }

    void open(MapSession session) {
        MapSession previous = byNode.put(session.nodeId(), session);
        if (previous != null) {
            previous.close();
        }
    }

    void closed(MapSession session) {
        byNode.remove(session.nodeId(), session);
    }

    public int size() {
        return byNode.size();
    }

    /** Every stream gets everything again, e.g. after the DNS or relay configuration changed. */
    public synchronized void changedEverything() {
        pendingEverything = true;
        scheduleFlush();
    }

    private synchronized void collect(MeshEvent event) {
        switch (event) {
            case MeshEvent.NodeEvent e -> pendingNodes.add(e.node().id());
            case MeshEvent.UserCreated e -> pendingUsers.add(e.user().id());
            case MeshEvent.UserChanged e -> pendingUsers.add(e.user().id());
            case MeshEvent.UserRoleUpdated e -> pendingUsers.add(e.user().id());
            case MeshEvent.UserDeleted e -> pendingUsers.add(e.user().id());
            case MeshEvent.PolicyUpdated e -> pendingPolicy = true;
        }
        scheduleFlush();
    }

    private void scheduleFlush() {
        if (!flushScheduled && !closed) {
            flushScheduled = true;
            flusher.schedule(this::flush, BATCH_WINDOW.toMillis(), TimeUnit.MILLISECONDS);
        }
    }

    private void flush() {
        ChangeSet changes;
        synchronized (this) {
            changes = new ChangeSet(pendingNodes, pendingUsers, pendingEverything, pendingPolicy);
            pendingNodes = new HashSet<>();
            pendingUsers = new HashSet<>();
            pendingEverything = false;
            pendingPolicy = false;
            flushScheduled = false;
        }
        if (!changes.isEmpty()) {
            byNode.values().forEach(session -> session.offer(changes));
        }
    }

    @Override
    public void close() {
        synchronized (this) {
            closed = true; // an event published while closing must not schedule onto the stopped flusher
        }
        unsubscribe.run();
        flusher.shutdownNow();
        byNode.values().forEach(MapSession::close);
    }
}
