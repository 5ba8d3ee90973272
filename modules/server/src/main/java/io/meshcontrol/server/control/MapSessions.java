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
 * {@link MapBatch} to turn into its own delta. The window grows with the number of open streams (see
 * {@link #batchWindow(int)}): every flush costs each stream a message, and each client a delta to apply (a delta
 * with a new peer makes the vendor's client rebuild its whole map), so with many nodes joining, fewer and larger
 * deltas are cheaper on both ends.
 *
 * <p>Node and user changes come from the snapshot's change feed, not from events: each batch then carries the
 * snapshot that holds exactly the changes flushed so far (events are published after the snapshot changed, so a
 * batch built from them could hold a snapshot with changes it does not name). Policy changes come as events.
 * The peers' wire forms ({@link PeerForms}) are shared by all streams.
 */
public final class MapSessions implements AutoCloseable {

    /** Long enough to merge a burst (a registration is several changes), short against the client's patience. */
    public static final Duration BATCH_WINDOW = Duration.ofMillis(50);
    /** The longest window: a change still reaches every stream well within a second. */
    public static final Duration MAX_BATCH_WINDOW = Duration.ofMillis(250);
    /** Window added per open stream (0.125 ms): 50 ms up to 400 streams, the longest from 2,000. */
    private static final long MICROS_PER_STREAM = 125;

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

    /** How long changes are collected before a flush, with this many streams open. */
    static Duration batchWindow(int streams) {
        long micros = Math.max(BATCH_WINDOW.toNanos() / 1000, streams * MICROS_PER_STREAM);
        return Duration.ofNanos(Math.min(micros, MAX_BATCH_WINDOW.toNanos() / 1000) * 1000);
    }

    private void scheduleFlush() {
        if (!flushScheduled && !closed) {
            flushScheduled = true;
            flusher.schedule(this::flush, batchWindow(byNode.size()).toNanos(), TimeUnit.NANOSECONDS);
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
