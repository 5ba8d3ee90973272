package io.meshcontrol.core.state;

import io.meshcontrol.core.event.EventBus;
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
 * ends, its last-seen time is stored and peers learn it went offline.
 */
public final class Presence {

    private final Map<Long, Integer> streams = new ConcurrentHashMap<>();
    private final Jdbi jdbi;
    private final NodeStore nodes;
    private final EventBus events;
    private final Clock clock;

    Presence(Jdbi jdbi, NodeStore nodes, EventBus events, Clock clock) {
        this.jdbi = jdbi;
        this.nodes = nodes;
        this.events = events;
        this.clock = clock;
    }

    public boolean isOnline(long nodeId) {
        return streams.containsKey(nodeId);
    }

    public void connected(Node node) {
        if (streams.merge(node.id(), 1, Integer::sum) == 1) {
            events.publish(new MeshEvent.NodeChanged(clock.instant(), node, "online"));
        }
    }

    public void disconnected(Node node) {
        Integer left = streams.computeIfPresent(node.id(), (id, count) -> count == 1 ? null : count - 1);
        if (left == null) {
            Instant now = clock.instant();
            jdbi.useTransaction(h -> nodes.markLastSeen(h, node.id(), now));
            events.publish(new MeshEvent.NodeChanged(now, node, "offline"));
        }
    }
}
