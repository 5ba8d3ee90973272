package io.meshcontrol.core.netmap;

import io.meshcontrol.core.netmap.frames.MapFrames;
import io.meshcontrol.core.netmap.frames.SharedFrames;
import io.meshcontrol.core.netmap.session.ChangeSet;
import io.meshcontrol.core.state.NetworkSnapshot;
import io.meshcontrol.core.state.Snapshots;
import io.meshcontrol.core.state.StateChange;
import io.meshcontrol.core.wire.PingRequest;
import java.io.IOException;
import java.io.OutputStream;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The open map streams, one per node (a new stream replaces an older one of the same node), and the
 * change batcher: changes are coalesced for {@link #BATCH_WINDOW} and each stream the batch concerns then gets one
 * {@link MapBatch} to turn into its own delta (every stream, but for a batch of presence changes alone, see
 * {@link #flush}). A batch ends after {@link #BATCH_WINDOW} without a change, so an
 * isolated change goes out at once; while changes keep coming (nodes joining, a mass reconnect) it ends at the
 * latest after a longest wait that grows with the open streams ({@link #longestWait(int)}): every flush costs each
 * stream a message and each client a delta to apply (a delta with a new peer makes the vendor's client rebuild its
 * whole map), so in a burst fewer, larger deltas are cheaper on both ends.
 *
 * <p>Every change comes from the change feed ({@link Snapshots}), in order, and nowhere else (not from events): each
 * batch then carries the snapshot that holds exactly the changes flushed so far. The peers' wire forms
 * ({@link PeerForms}) and the gate full maps are built through ({@link FullMapGate}) are shared by all streams.
 *
 * <p>The server's map endpoint, the only HTTP adapter of map streaming, {@linkplain #open opens} a stream per
 * streaming request and {@linkplain #writeSingleMap writes} the one map of any other.
 */
public final class MapSessions implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(MapSessions.class.getName());

    /**
     * Quiet time that ends a batch: long enough to merge a registration's several changes, short against the
     * client's patience.
     */
    public static final Duration BATCH_WINDOW = Duration.ofMillis(50);
    /** The longest a batch waits while changes keep coming: a change still reaches every stream within a second. */
    public static final Duration MAX_BATCH_WINDOW = Duration.ofMillis(500);
    /** Longest wait per open stream (0.25 ms): 50 ms up to 200 streams, 500 ms from 2,000. */
    private static final long MICROS_PER_STREAM = 250;

    private final Map<Long, MapSession> byNode = new ConcurrentHashMap<>();
    private final PeerForms forms = new PeerForms();
    private final FullMapGate fullMaps = FullMapGate.perCore();
    private final ScheduledExecutorService flusher = Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform().name("map-batcher").daemon().factory());
    private final MapInputs.Source inputs;
    private final Duration keepAlive;
    private final MapStreamMetrics metrics;
    private final Runnable unsubscribe;
    private Set<Long> pendingNodes = new HashSet<>();
    private Set<Long> pendingUsers = new HashSet<>();
    private boolean pendingEverything;
    private boolean pendingPolicy;
    private NetworkSnapshot pendingSnapshot;
    private boolean flushScheduled;
    private long firstChangeNanos;
    private long lastChangeNanos;
    private boolean closed;
    /** The rows version of the last batch's snapshot (batcher thread only). */
    private long lastRowsVersion = -1;
    /** Batches handed to streams, counted per stream (tests). */
    private final AtomicLong offered = new AtomicLong();

    /** @param keepAlive how long a stream may be idle before it is sent a keep-alive (spread by up to a fifth more) */
    public MapSessions(Snapshots feed, MapInputs.Source inputs, Duration keepAlive, MapStreamMetrics metrics) {
        this.inputs = inputs;
        this.keepAlive = keepAlive;
        this.metrics = metrics;
        synchronized (this) {
            this.pendingSnapshot = feed.current();
        }
        this.unsubscribe = feed.subscribe(this::changed);
    }

    /** The peer forms every stream of this server shares. */
    PeerForms peerForms() {
        return forms;
    }

    MapInputs.Source inputs() {
        return inputs;
    }

    Duration keepAlive() {
        return keepAlive;
    }

    MapStreamMetrics metrics() {
        return metrics;
    }

    /**
     * A new stream of the node, replacing any older one of it (which ends); {@link MapSession#run} then streams.
     *
     * @param capVersion the client's capability version
     * @param frames how this client wants its messages framed
     */
    public MapSession open(long nodeId, int capVersion, MapFrames frames, OutputStream out) {
        MapSession session = new MapSession(this, nodeId, capVersion, frames, out);
        MapSession previous = byNode.put(nodeId, session);
        if (previous != null) {
            previous.close();
        }
        return session;
    }

    /**
     * The answer to a map request that does not stream: the node's full map, as {@code frames} encode it.
     *
     * @param requestNanos when the request was read ({@link System#nanoTime()})
     */
    public void writeSingleMap(long nodeId, int capVersion, MapFrames frames, OutputStream out, long requestNanos)
            throws InterruptedException, IOException {
        writeFullMap(new MapSessionState(nodeId, capVersion, forms), frames, out);
        metrics.fullMapWritten(requestNanos);
        frames.close();
    }

    /**
     * Writes the node's full map as {@code frames} encode it, built through the gate from the inputs as they are once
     * the gate lets it: the first message of a stream, and the answer to a single map request.
     */
    void writeFullMap(MapSessionState state, MapFrames frames, OutputStream out)
            throws InterruptedException, IOException {
        writeFullMap(state, frames, out, () -> {
        });
    }

    /** As above, running {@code beforeInputs} once the gate lets the map be built, just before its inputs are read. */
    void writeFullMap(MapSessionState state, MapFrames frames, OutputStream out, Runnable beforeInputs)
            throws InterruptedException, IOException {
        fullMaps.buildAndWrite(() -> {
            beforeInputs.run();
            return frames.encodeInPieces(state.initial(inputs.current()));
        }, frame -> frame.writeTo(out));
    }

    /**
     * Sends {@code request} on the node's stream, if it has one.
     *
     * @return the stream it went on ({@link MapSession#open} tells later whether it still runs); empty without one
     */
    public Optional<MapSession> ping(long nodeId, PingRequest request) {
        MapSession session = byNode.get(nodeId);
        if (session == null) {
            return Optional.empty();
        }
        session.ping(request);
        return Optional.of(session);
    }

    boolean isOpen(MapSession session) {
        return byNode.get(session.nodeId()) == session;
    }

    void closed(MapSession session) {
        byNode.remove(session.nodeId(), session);
    }

    public int size() {
        return byNode.size();
    }

    /**
     * The open streams and the batcher, for the debug pages.
     *
     * @param streams the open streams by node id
     * @param pendingNodes nodes changed since the last flush; {@code pendingUsers} likewise
     * @param pendingPolicy the policy changed since the last flush
     * @param pendingEverything the map context (DNS, DERP map) changed since the last flush: every map again
     * @param flushScheduled a flush is due
     * @param longestWait how long the pending batch may collect changes that keep coming, with this many streams
     */
    public record Status(List<Stream> streams, int pendingNodes, int pendingUsers, boolean pendingPolicy,
                         boolean pendingEverything, boolean flushScheduled, Duration batchWindow,
                         Duration longestWait) {
    }

    /**
     * One open stream.
     *
     * @param queuedBatches batches handed to the stream and not yet written (a slow client's backlog)
     */
    public record Stream(long nodeId, int capVersion, int queuedBatches) {
    }

    public synchronized Status status() {
        List<Stream> streams = byNode.values().stream()
                .map(session -> new Stream(session.nodeId(), session.capVersion(), session.queued()))
                .sorted(java.util.Comparator.comparingLong(Stream::nodeId))
                .toList();
        return new Status(streams, pendingNodes.size(), pendingUsers.size(), pendingPolicy, pendingEverything,
                flushScheduled, BATCH_WINDOW, longestWait(byNode.size()));
    }

    private synchronized void changed(StateChange change) {
        switch (change) {
            case StateChange.NodeChanged node -> pendingNodes.add(node.nodeId());
            case StateChange.UserChanged user -> pendingUsers.add(user.userId());
            case StateChange.PolicyChanged policy -> pendingPolicy = true;
            case StateChange.MapContextChanged context -> pendingEverything = true; // DNS, the DERP map: all again
            case StateChange.NodeAttributesChanged attributes -> pendingEverything = true; // every self node
            case StateChange.Recorded recorded -> {
                return; // an administrative change reaches maps through the rows, policy or context it changed
            }
            case StateChange.DeliveryFinished delivery -> {
                return; // no map carries webhooks
            }
        }
        pendingSnapshot = change.snapshot();
        scheduleFlush();
    }

    /** The longest a batch collects changes that keep coming, with this many streams open. */
    static Duration longestWait(int streams) {
        long micros = Math.max(BATCH_WINDOW.toNanos() / 1000, streams * MICROS_PER_STREAM);
        return Duration.ofNanos(Math.min(micros, MAX_BATCH_WINDOW.toNanos() / 1000) * 1000);
    }

    /**
     * Nanoseconds until the pending batch is due (0: now): {@link #BATCH_WINDOW} after its last change, but no later
     * than {@code longestWait} after its first.
     */
    static long untilDue(long firstChangeNanos, long lastChangeNanos, long nowNanos, Duration longestWait) {
        long due = Math.min(lastChangeNanos + BATCH_WINDOW.toNanos(), firstChangeNanos + longestWait.toNanos());
        return Math.max(0, due - nowNanos);
    }

    /** Called with the lock held, for every change. */
    private void scheduleFlush() {
        long now = System.nanoTime();
        lastChangeNanos = now;
        if (!flushScheduled && !closed) {
            flushScheduled = true;
            firstChangeNanos = now;
            flusher.schedule(this::flushWhenDue, BATCH_WINDOW.toNanos(), TimeUnit.NANOSECONDS);
        }
    }

    private void flushWhenDue() {
        synchronized (this) {
            long wait = untilDue(firstChangeNanos, lastChangeNanos, System.nanoTime(), longestWait(byNode.size()));
            if (wait > 0 && !closed) {
                flusher.schedule(this::flushWhenDue, wait, TimeUnit.NANOSECONDS);
                return;
            }
        }
        flush();
    }

    private void flush() {
        MapBatch batch;
        synchronized (this) {
            batch = new MapBatch(new ChangeSet(pendingNodes, pendingUsers, pendingEverything, pendingPolicy),
                    pendingSnapshot, inputs.now(), new SharedFrames());
            pendingNodes = new HashSet<>();
            pendingUsers = new HashSet<>();
            pendingEverything = false;
            pendingPolicy = false;
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
        AccessRules rules = rulesFor(batch);
        boolean presenceOnly = isPresenceOnly(batch.changes()) && batch.snapshot().rowsVersion() == lastRowsVersion;
        lastRowsVersion = batch.snapshot().rowsVersion();
        long[] viewers = presenceOnly && rules != null
                ? rules.seenBy(batch.changes().nodeIds(), byNode.size() / 2)
                : null;
        if (viewers == null) {
            byNode.values().forEach(session -> offer(session, batch));
            return;
        }
        Set<Long> concerned = new HashSet<>(batch.changes().nodeIds());
        for (long viewer : viewers) {
            concerned.add(viewer);
        }
        for (long nodeId : concerned) {
            MapSession session = byNode.get(nodeId);
            if (session != null) {
                offer(session, batch);
            }
        }
    }

    /**
     * The rules for the batch's snapshot, compiled here once (a new policy, a join) rather than by the first of
     * thousands of streams while the others queue for the compilation's lock; kept rules cost a lookup. Null when
     * they cannot be compiled: each stream then fails on them as it would have.
     */
    private AccessRules rulesFor(MapBatch batch) {
        try {
            return inputs.of(batch.snapshot(), batch.at()).access();
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.DEBUG, "compiling the rules for a batch failed", e);
            return null;
        }
    }

    private void offer(MapSession session, MapBatch batch) {
        offered.incrementAndGet();
        session.offer(batch);
    }

    /** How many times a batch was handed to a stream so far (tests). */
    long batchesOffered() {
        return offered.get();
    }

    /**
     * Whether a batch names only nodes (no user, policy or context change). With the snapshot's rows as they were at
     * the batch before (route elections count as row changes), what changed is only online states and last-seen
     * times, which change nobody's rules: the batch then concerns only the named nodes' own streams and those of the
     * nodes that see them, unless those are most streams anyway (allow-all). Under {@code autogroup:self} a mass
     * reconnect's presence changes went to all 10,000 streams, each of which merged them and looked at thousands of
     * nodes it does not see: 44% of the server's samples in the reconnect.
     */
    private static boolean isPresenceOnly(ChangeSet changes) {
        return !changes.policy() && !changes.everything() && changes.userIds().isEmpty();
    }

    @Override
    public void close() {
        synchronized (this) {
            closed = true; // a change while closing must not schedule onto the stopped flusher
        }
        unsubscribe.run();
        flusher.shutdownNow();
        byNode.values().forEach(MapSession::close);
    }
}
