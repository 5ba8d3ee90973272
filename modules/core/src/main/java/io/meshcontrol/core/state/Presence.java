package io.meshcontrol.core.state;

import io.meshcontrol.core.event.MeshEvent;
import io.meshcontrol.core.model.Node;
import io.meshcontrol.core.store.NodeStore;
import java.time.Clock;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.jdbi.v3.core.Jdbi;

/**
 * Which nodes hold a map stream right now. A node is online while it has at least one; when its last one
 * ends, its last-seen time is stored and peers learn it went offline. The online state is part of the
 * network snapshot (set together with the stream count, so the two cannot disagree), which is where map
 * building reads it.
 */
public final class Presence {

    private final Map<Long, Integer> streams = new ConcurrentHashMap<>();
    private final Jdbi jdbi;
    private final NodeStore nodes;
    private final Snapshots snapshots;
    private final Clock clock;

    Presence(Jdbi jdbi, NodeStore nodes, Snapshots snapshots, Clock clock) {
        this.jdbi = jdbi;
        this.snapshots = snapshots;
        this.nodes = nodes;
        this.clock = clock;
    }

    public void connected(Node node) {
        boolean[] first = new boolean[1];
        streams.compute(node.id(), (id, count) -> {
            if (count == null) {
                first[0] = true;
                snapshots.online(id, true);
                return 1;
            }
            return count + 1;
        });
        if (first[0]) {
            snapshots.publish(new MeshEvent.NodeChanged(clock.instant(), current(node), "online"));
        }
    }

    public void disconnected(Node node) {
        boolean[] last = new boolean[1];
        streams.computeIfPresent(node.id(), (id, count) -> {
            if (count == 1) {
                last[0] = true;
                snapshots.online(id, false);
                return null;
            }
            return count - 1;
        });
        if (last[0]) {
            Instant now = clock.instant();
            jdbi.useTransaction(h -> nodes.markLastSeen(h, node.id(), now).ifPresent(written ->
                    snapshots.publishOnCommit(h, new MeshEvent.NodeChanged(now, written, "offline"))));
        }
    }

    /** The node as it is now (the caller's copy may be older), or the caller's when it is gone. */
    private Node current(Node node) {
        return snapshots.current().node(node.id()).orElse(node);
    }
}
