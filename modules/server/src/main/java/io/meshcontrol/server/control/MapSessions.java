package io.meshcontrol.server.control;

import io.meshcontrol.core.event.EventBus;
import io.meshcontrol.core.event.MeshEvent;
import io.meshcontrol.core.netmap.ChangeSet;
import io.meshcontrol.core.netmap.PeerForms;
import io.meshcontrol.core.state.NetworkSnapshot;
import io.meshcontrol.core.state.Snapshots;
import java.time.Clock;
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
 * change batcher: changes are coalesced for {@link #BATCH_WINDOW} and each stream then gets one
 * {@link MapBatch} to turn into its own delta.
 *
 * <p>Node and user changes come from the snapshot's change feed, not from events: each batch then carries the
 * snapshot that holds exactly the changes flushed so far (events are published after the snapshot changed, so a
 * batch built from them could hold a snapshot with changes it does not name). Policy changes come as events.
 * The peers' wire forms ({@link PeerForms}) are shared by all streams.
 */
public final class MapSessions implements AutoCloseable {

    /** Long enough to merge a burst (a registration is several events), short against the client's patience. */
    public static final Duration BATCH_WINDOW = Duration.ofMillis(50);

    private final Map<Long, MapSession> byNode = new ConcurrentHashMap<>();
    private final PeerForms forms = new PeerForms();
    private final ScheduledExecutorService flusher = Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform().name("map-batcher").daemon().factory());
    private final Clock clock;
    private final Runnable unsubscribeEvents;
    private final Runnable unsubscribeSnapshots;
    private Set<Long> pendingNodes = new HashSet<>();
    private Set<Long> pendingUsers = new HashSet<>();
    private boolean pendingEverything;
    private NetworkSnapshot pendingSnapshot;
    private boolean flushScheduled;
    private boolean closed;

    public MapSessions(EventBus events, Snapshots snapshots, Clock clock) {
        this.clock = clock;
        synchronized (this) {
            this.pendingSnapshot = snapshots.current();
        }
        this.unsubscribeSnapshots = snapshots.subscribe(this::changed);
        this.unsubscribeEvents = events.subscribe(this::collect);
    }

    /** The peer forms every stream of this server shares. */
    PeerForms peerForms() {
        return forms;
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

    private synchronized void changed(Snapshots.Change change) {
        switch (change.kind()) {
            case NODE -> pendingNodes.add(change.id());
            case USER -> pendingUsers.add(change.id());
        }
        pendingSnapshot = change.snapshot();
        scheduleFlush();
    }

    private synchronized void collect(MeshEvent event) {
        if (event instanceof MeshEvent.PolicyUpdated) {
            pendingEverything = true;
            scheduleFlush();
        }
    }

    private void scheduleFlush() {
        if (!flushScheduled && !closed) {
            flushScheduled = true;
            flusher.schedule(this::flush, BATCH_WINDOW.toMillis(), TimeUnit.MILLISECONDS);
        }
    }

    private void flush() {
        MapBatch batch;
        synchronized (this) {
            batch = new MapBatch(new ChangeSet(pendingNodes, pendingUsers, pendingEverything), pendingSnapshot,
                    clock.instant(), new SharedFrames());
            pendingNodes = new HashSet<>();
            pendingUsers = new HashSet<>();
            pendingEverything = false;
            flushScheduled = false;
        }
        if (batch.changes().isEmpty()) {
            return;
        }
        for (long id : batch.changes().nodeIds()) {
            if (batch.snapshot().node(id).isEmpty()) {
                forms.forget(id);
            }
        }
        byNode.values().forEach(session -> session.offer(batch));
    }

    @Override
    public void close() {
        synchronized (this) {
            closed = true; // a change while closing must not schedule onto the stopped flusher
        }
        unsubscribeSnapshots.run();
        unsubscribeEvents.run();
        flusher.shutdownNow();
        byNode.values().forEach(MapSession::close);
    }
}
