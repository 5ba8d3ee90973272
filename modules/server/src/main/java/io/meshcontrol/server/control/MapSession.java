package io.meshcontrol.server.control;

import io.meshcontrol.core.netmap.AccessControl;
import io.meshcontrol.core.netmap.ChangeSet;
import io.meshcontrol.core.netmap.MapContext;
import io.meshcontrol.core.netmap.MapSessionState;
import io.meshcontrol.core.netmap.PeerForms;
import io.meshcontrol.core.state.Network;
import io.meshcontrol.core.state.NetworkSnapshot;
import io.meshcontrol.core.netmap.MapFrames;
import io.meshcontrol.core.wire.MapResponse;
import io.meshcontrol.server.metrics.MapMetrics;
import java.io.IOException;
import java.io.OutputStream;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * One node's long-poll map stream. Runs on the request's virtual thread: sends the full map, then waits
 * for change sets (and sends deltas) or for the keep-alive time (and sends a keep-alive), until the client
 * goes away, the node is deleted or a newer stream of the same node replaces it.
 */
final class MapSession {

    private static final MapBatch CLOSE = new MapBatch(new ChangeSet(Set.of(), Set.of(), false), null, null, null);

    private final long nodeId;
    private final MapSessionState state;
    private final MapFrames frames;
    private final OutputStream out;
    private final Network network;
    private final Supplier<MapContext> context;
    private final AccessControl access;
    private final FullMapGate fullMaps;
    private final Duration keepAlive;
    private final MapMetrics metrics;
    private final Clock clock;
    private final LinkedBlockingQueue<MapBatch> inbox = new LinkedBlockingQueue<>();
    private volatile boolean closed;

    MapSession(long nodeId, int capVersion, MapFrames frames, OutputStream out, Network network,
            Supplier<MapContext> context, AccessControl access, PeerForms forms, FullMapGate fullMaps,
            Duration keepAlive, MapMetrics metrics, Clock clock) {
        this.fullMaps = fullMaps;
        this.access = access;
        this.metrics = metrics;
        this.nodeId = nodeId;
        this.state = new MapSessionState(nodeId, capVersion, forms);
        this.frames = frames;
        this.out = out;
        this.network = network;
        this.context = context;
        this.keepAlive = keepAlive;
        this.clock = clock;
    }

    long nodeId() {
        return nodeId;
    }

    void offer(MapBatch batch) {
        inbox.offer(batch);
    }

    /** Changes with the snapshot as it is now and no shared frames (tests). */
    void offer(ChangeSet changes) {
        offer(new MapBatch(changes, network.snapshots().current(), clock.instant(), new SharedFrames()));
    }

    void close() {
        closed = true;
        inbox.offer(CLOSE);
    }

    /**
     * Streams until the end; returns normally when the stream is over for any reason.
     *
     * @param requestNanos when the map request was read ({@link System#nanoTime()})
     */
    void run(long requestNanos) throws InterruptedException {
        try {
            writeFullMap(state, frames, fullMaps, network, context, access, clock, out);
            metrics.fullMapWritten(requestNanos);
            while (!closed) {
                MapBatch batch = inbox.poll(nextKeepAlive(), TimeUnit.MILLISECONDS);
                if (batch == null) {
                    send(out, frames.keepAlive());
                    metrics.keepAliveWritten();
                    continue;
                }
                if (closed || batch == CLOSE) {
                    break;
                }
                batch = drain(batch);
                if (closed) {
                    break;
                }
                if (network.snapshots().current().node(nodeId).isEmpty()) {
                    break; // deleted: ending the stream makes the client register again
                }
                NetworkSnapshot snapshot = batch.snapshot();
                Optional<MapResponse> delta = state.update(batch.changes(), snapshot, context.get(),
                        access.rules(snapshot), network.routeElection().current(), batch.at());
                if (delta.isPresent()) {
                    send(out, batch.frames().frame(delta.get(), frames));
                    metrics.deltaWritten();
                }
            }
        } catch (IOException gone) {
            // The client closed the stream: nothing to do but end it.
        } finally {
            frames.close();
        }
    }

    /**
     * Writes the node's full map as {@code frames} encode it, built through the gate from the snapshot as it is once
     * the gate lets it: the first message of a stream, and the answer to a single (non-streaming) map request.
     */
    static void writeFullMap(MapSessionState state, MapFrames frames, FullMapGate gate, Network network,
            Supplier<MapContext> context, AccessControl access, Clock clock, OutputStream out)
            throws InterruptedException, IOException {
        gate.buildAndWrite(() -> {
            NetworkSnapshot snapshot = network.snapshots().current();
            return frames.encode(state.initial(snapshot, context.get(), access.rules(snapshot),
                    network.routeElection().current(), clock.instant()));
        }, frame -> send(out, frame));
    }

    private MapBatch drain(MapBatch first) {
        List<MapBatch> waiting = new ArrayList<>();
        waiting.add(first);
        for (MapBatch next = inbox.poll(); next != null; next = inbox.poll()) {
            if (next == CLOSE) {
                closed = true;
                break;
            }
            waiting.add(next);
        }
        return MapBatch.merge(waiting);
    }

    /** About 50 s, spread by up to 9 s so that many clients do not wake together. */
    private long nextKeepAlive() {
        long base = keepAlive.toMillis();
        return base + ThreadLocalRandom.current().nextLong(Math.max(1, base / 5));
    }

    /** Writes one frame and hands it to the connection. */
    private static void send(OutputStream out, byte[] frame) throws IOException {
        out.write(frame);
        out.flush();
    }
}
