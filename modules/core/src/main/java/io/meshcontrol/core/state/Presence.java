package io.meshcontrol.core.state;

import io.meshcontrol.core.event.MeshEvent;
import io.meshcontrol.core.model.Node;
import io.meshcontrol.core.store.ChangeLog;
import io.meshcontrol.core.store.InstanceStore;
import io.meshcontrol.core.store.NodeStore;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;

/**
 * Which nodes hold a map stream right now. A node is online while it has at least one; when its last one
 * ends, its last-seen time is stored and peers learn it went offline. The online state is part of the
 * network snapshot (set together with the stream count, so the two cannot disagree), which is where map
 * building reads it.
 *
 * <p>Last-seen times are written in groups: whoever writes takes every departure queued meanwhile into the same
 * transaction, and each caller returns once its own is committed. Every commit waits for the disk ({@code
 * synchronous=FULL}), so when thousands of streams end at once (a network blip, a restart on the clients' side) a
 * transaction each took 25 s at N = 10,000, the CPU idle meanwhile; grouped, they are a few commits.
 *
 * <p>Where several instances share the database (PostgreSQL), a node is online while any live instance holds a stream
 * of it: each instance writes its first stream and its last stream's end of a node ({@code node_streams}, with a
 * {@link ChangeLog.Kind#STREAM} row), and follows the others' ({@link #followStreams}); an instance whose heartbeat
 * stopped counts for nothing ({@link ChangeFollower}). On SQLite nothing more is written than before.
 */
public final class Presence {

    /** Departures written in one transaction at most: other writers wait for a fraction of a second, not more. */
    static final int GROUP_LIMIT = 1000;

    private final Map<Long, Integer> streams = new ConcurrentHashMap<>();
    /**
     * The other live instances holding a stream of a node, by node (PostgreSQL). Changed only inside
     * {@code streams.compute} of the node, so a node's online state changes atomically with both.
     */
    private final Map<Long, Set<String>> elsewhere = new ConcurrentHashMap<>();
    /** Departures whose last-seen time is not written yet, oldest first. */
    private final Queue<Departure> departures = new ConcurrentLinkedQueue<>();
    /** Held by the one caller writing a group of departures (and by tests, to let departures queue up). */
    final ReentrantLock writing = new ReentrantLock();
    /** Groups written so far, for tests. */
    private final AtomicInteger groupsWritten = new AtomicInteger();
    private final Jdbi jdbi;
    private final NodeStore nodes;
    private final Snapshots snapshots;
    private final Clock clock;
    private final InstanceStore instances = new InstanceStore();

    Presence(Jdbi jdbi, NodeStore nodes, Snapshots snapshots, Clock clock) {
        this.jdbi = jdbi;
        this.snapshots = snapshots;
        this.nodes = nodes;
        this.clock = clock;
    }

    public void connected(Node node) {
        boolean[] first = new boolean[1];
        boolean[] online = new boolean[1];
        streams.compute(node.id(), (id, count) -> {
            if (count == null) {
                first[0] = true;
                if (!elsewhere.containsKey(id)) {
                    online[0] = true;
                    snapshots.online(id, true);
                }
                return 1;
            }
            return count + 1;
        });
        if (first[0]) {
            writeStream(node.id());
        }
        if (online[0]) {
            snapshots.publish(new MeshEvent.NodeChanged(clock.instant(), current(node), "online"));
        }
    }

    public void disconnected(Node node) {
        boolean[] last = new boolean[1];
        streams.computeIfPresent(node.id(), (id, count) -> {
            if (count == 1) {
                last[0] = true;
                if (!elsewhere.containsKey(id)) {
                    snapshots.online(id, false);
                }
                return null;
            }
            return count - 1;
        });
        if (last[0]) {
            storeLastSeen(new Departure(node.id(), clock.instant(), false, new CompletableFuture<>()));
        }
    }

    /** Whether the node holds a stream here or on another live instance. */
    private boolean online(long nodeId) {
        return streams.containsKey(nodeId) || elsewhere.containsKey(nodeId);
    }

    /**
     * Another instance opened its first or ended its last stream of node {@code nodeId}: {@code instances} are the
     * other live instances holding one now, as read from the database. Its online state follows; the instance that made
     * the change announced it (its event and webhooks).
     */
    void followStreams(long nodeId, Set<String> instances) {
        streams.compute(nodeId, (id, count) -> {
            boolean before = count != null || elsewhere.containsKey(id);
            if (instances.isEmpty()) {
                elsewhere.remove(id);
            } else {
                elsewhere.put(id, Set.copyOf(instances));
            }
            boolean after = count != null || !instances.isEmpty();
            if (before != after) {
                snapshots.online(id, after);
            }
            return count;
        });
    }

    /**
     * Puts the node's online state into the snapshot again: a node another instance registered may stream here (or
     * there) before this instance's snapshot held it, and a new entry starts offline.
     */
    void reassert(long nodeId) {
        streams.compute(nodeId, (id, count) -> {
            boolean online = count != null || elsewhere.containsKey(id);
            if (snapshots.current().node(id).isPresent() && snapshots.current().isOnline(id) != online) {
                snapshots.online(id, online);
            }
            return count;
        });
    }

    /** Every node's streams on the other live instances, read from the database (at start, or an instance gone). */
    void followAllStreams(Map<Long, Set<String>> all) {
        Set<Long> nodes = new HashSet<>(elsewhere.keySet());
        nodes.addAll(all.keySet());
        nodes.forEach(id -> followStreams(id, all.getOrDefault(id, Set.of())));
    }

    /**
     * Writes this instance's streams again (its row was deleted as silent, and its streams with it): a long pause
     * of the process, or of its database connection.
     */
    void rewriteStreams(Handle handle) {
        ChangeLog log = snapshots.changeLog();
        for (long id : streams.keySet()) {
            instances.streamOpened(handle, log.instanceId(), id);
            log.append(handle, ChangeLog.Kind.STREAM, id);
        }
    }

    /**
     * PostgreSQL: this instance's first stream of the node opened, so other instances count it online. Written in a
     * group with other arrivals and departures; returns once written.
     */
    private void writeStream(long nodeId) {
        if (!snapshots.changeLog().on()) {
            return;
        }
        try {
            storeLastSeen(new Departure(nodeId, clock.instant(), true, new CompletableFuture<>()));
        } catch (RuntimeException e) {
            // The stream works without it; other instances see the node online once it is written again.
            System.getLogger(Presence.class.getName()).log(System.Logger.Level.WARNING,
                    "cannot record node " + nodeId + "'s stream for the other instances: " + e.getMessage());
        }
    }

    private record Departure(long nodeId, Instant at, boolean arrival, CompletableFuture<Void> stored) {
    }

    /**
     * Queues the departure (or arrival) and returns once it is written, by this caller or by one that took it into its
     * group.
     */
    private void storeLastSeen(Departure departure) {
        departures.add(departure);
        writing.lock();
        try {
            while (!departure.stored().isDone()) {
                writeQueued();
            }
        } finally {
            writing.unlock();
        }
        try {
            departure.stored().join();
        } catch (CompletionException e) {
            throw e.getCause() instanceof RuntimeException cause ? cause : e;
        }
    }

    /**
     * Writes the queued departures, up to {@link #GROUP_LIMIT} of them, in one transaction. A node that is online again
     * by then is not announced offline (its return was announced already).
     */
    private void writeQueued() {
        List<Departure> group = new ArrayList<>();
        for (Departure next = departures.poll(); next != null; next = departures.poll()) {
            group.add(next);
            if (group.size() == GROUP_LIMIT) {
                break;
            }
        }
        groupsWritten.incrementAndGet();
        try {
            ChangeLog log = snapshots.changeLog();
            jdbi.useTransaction(h -> {
                for (Departure departure : group) {
                    if (departure.arrival()) {
                        if (streams.containsKey(departure.nodeId())) {
                            // Unless it left already: then its departure, queued after this, writes its end.
                            instances.streamOpened(h, log.instanceId(), departure.nodeId());
                            log.append(h, ChangeLog.Kind.STREAM, departure.nodeId());
                        }
                        continue;
                    }
                    if (log.on() && !streams.containsKey(departure.nodeId())) {
                        // Unless it streams here again: that stream's row is written after this commits.
                        instances.streamClosed(h, log.instanceId(), departure.nodeId());
                        log.append(h, ChangeLog.Kind.STREAM, departure.nodeId());
                    }
                    nodes.markLastSeen(h, departure.nodeId(), departure.at())
                            .filter(written -> !online(written.id()))
                            .ifPresent(written -> snapshots.publishOnCommit(h,
                                    new MeshEvent.NodeChanged(departure.at(), written, "offline")));
                }
            });
            group.forEach(departure -> departure.stored().complete(null));
        } catch (RuntimeException e) {
            group.forEach(departure -> departure.stored().completeExceptionally(e));
        }
    }

    int queuedDepartures() {
        return departures.size();
    }

    int groupsWritten() {
        return groupsWritten.get();
    }

    /** The node as it is now (the caller's copy may be older), or the caller's when it is gone. */
    private Node current(Node node) {
        return snapshots.current().node(node.id()).orElse(node);
    }
}
