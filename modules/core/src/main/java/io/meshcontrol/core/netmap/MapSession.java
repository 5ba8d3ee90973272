package io.meshcontrol.core.netmap;

import io.meshcontrol.core.netmap.frames.MapFrames;
import io.meshcontrol.core.netmap.session.ChangeSet;
import io.meshcontrol.core.wire.MapResponse;
import io.meshcontrol.core.wire.PingRequest;
import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * One node's long-poll map stream, opened by {@link MapSessions#open}. Runs on the request's virtual thread: sends the
 * full map, then waits for change sets (and sends deltas) or for the keep-alive time (and sends a keep-alive), until
 * the client goes away, the node is deleted or a newer stream of the same node replaces it.
 */
public final class MapSession {

    private static final MapBatch CLOSE = new MapBatch(new ChangeSet(Set.of(), Set.of(), false), null, null, null);
    /** Wakes the stream to send what {@link #ping} queued. */
    private static final MapBatch PING = new MapBatch(new ChangeSet(Set.of(), Set.of(), false), null, null, null);

    private final MapSessions sessions;
    private final long nodeId;
    private final int capVersion;
    private final MapSessionState state;
    private final MapFrames frames;
    private final OutputStream out;
    private final LinkedBlockingQueue<MapBatch> inbox = new LinkedBlockingQueue<>();
    /** Set just before the full map's inputs are read; from then on batches are queued (see {@link #offer}). */
    private volatile boolean building;
    private final ConcurrentLinkedQueue<PingRequest> pings = new ConcurrentLinkedQueue<>();
    private volatile boolean closed;

    MapSession(MapSessions sessions, long nodeId, int capVersion, MapFrames frames, OutputStream out) {
        this.sessions = sessions;
        this.nodeId = nodeId;
        this.capVersion = capVersion;
        this.state = new MapSessionState(nodeId, capVersion, sessions.peerForms());
        this.frames = frames;
        this.out = out;
    }

    long nodeId() {
        return nodeId;
    }

    int capVersion() {
        return capVersion;
    }

    /** Batches waiting to be written. */
    int queued() {
        return inbox.size();
    }

    /**
     * Takes a batch of changes to send, once the full map has begun to be built: before that it is dropped, because the
     * full map is built from the snapshot current at that moment, never older than a batch already offered (the feed
     * makes a snapshot current before its batch goes out). Queued, the batches of thousands of streams waiting for their
     * full maps during a big join held every change, its snapshot and frames: at N = 10,000 that was 12.8 million
     * queue entries, a full 2 GiB heap and collections that stopped the server.
     */
    void offer(MapBatch batch) {
        if (building) {
            inbox.offer(batch);
        }
    }

    /** Asks the client to answer {@code request}; sent on the stream as a keep-alive that carries it. */
    void ping(PingRequest request) {
        pings.offer(request);
        inbox.offer(PING);
    }

    /** Whether the stream still runs (a newer one of the node, or the client leaving, ends it). */
    public boolean open() {
        return !closed && sessions.isOpen(this);
    }

    /** Ends the stream: it writes nothing more, and {@link #run} returns. */
    public void close() {
        closed = true;
        inbox.offer(CLOSE);
    }

    /**
     * Streams until the end; returns normally when the stream is over for any reason (and is then no longer one of
     * the open streams).
     *
     * @param requestNanos when the map request was read ({@link System#nanoTime()})
     */
    public void run(long requestNanos) throws InterruptedException {
        try {
            sessions.writeFullMap(state, frames, out, () -> building = true);
            sessions.metrics().fullMapWritten(requestNanos);
            while (!closed) {
                MapBatch batch = inbox.poll(nextKeepAlive(), TimeUnit.MILLISECONDS);
                if (batch == null) {
                    send(out, frames.keepAlive());
                    sessions.metrics().keepAliveWritten();
                    continue;
                }
                if (closed || batch == CLOSE) {
                    break;
                }
                sendPings();
                if (batch == PING) {
                    continue;
                }
                batch = drain(batch);
                if (closed) {
                    break;
                }
                sendPings();
                if (sessions.inputs().snapshot().node(nodeId).isEmpty()) {
                    break; // deleted: ending the stream makes the client register again
                }
                Optional<MapResponse> delta = state.update(batch.changes(),
                        sessions.inputs().of(batch.snapshot(), batch.at()));
                if (delta.isPresent()) {
                    send(out, batch.frames().frame(delta.get(), frames));
                    sessions.metrics().deltaWritten();
                }
            }
        } catch (IOException gone) {
            // The client closed the stream: nothing to do but end it.
        } finally {
            frames.close();
            sessions.closed(this);
        }
    }

    private MapBatch drain(MapBatch first) {
        List<MapBatch> waiting = new ArrayList<>();
        waiting.add(first);
        for (MapBatch next = inbox.poll(); next != null; next = inbox.poll()) {
            if (next == CLOSE) {
                closed = true;
                break;
            }
            if (next != PING) {
                waiting.add(next);
            }
        }
        return MapBatch.merge(waiting);
    }

    private void sendPings() throws IOException {
        for (PingRequest request = pings.poll(); request != null; request = pings.poll()) {
            send(out, frames.encode(MapResponse.builder().keepAlive(true).pingRequest(request).build()));
        }
    }

    /** About 50 s, spread by up to 9 s so that many clients do not wake together. */
    private long nextKeepAlive() {
        long base = sessions.keepAlive().toMillis();
        return base + ThreadLocalRandom.current().nextLong(Math.max(1, base / 5));
    }

    /** Writes one frame and hands it to the connection. */
    static void send(OutputStream out, byte[] frame) throws IOException {
        out.write(frame);
        out.flush();
    }
}
