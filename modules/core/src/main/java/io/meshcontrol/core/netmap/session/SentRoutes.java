package io.meshcontrol.core.netmap.session;

import io.meshcontrol.core.model.Node;
import io.meshcontrol.core.net.IpPrefix;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The routes one map session last sent its routers with. Which of a router's routes a viewer is offered depends on
 * the policy and the viewer, not only on the router's snapshot entry, so for the few peers with approved routes (or
 * hosted services) a session keeps what it sent, and sends such a peer again after a change of the rules only when
 * that differs. Owned by one session thread.
 */
public final class SentRoutes {

    /** What of a router's wire form depends on the viewer. */
    private record Offered(List<IpPrefix> allowedIps, List<IpPrefix> primaryRoutes) {

        static Offered of(io.meshcontrol.core.wire.Node wire) {
            return new Offered(wire.allowedIps(), wire.primaryRoutes());
        }
    }

    private final Map<Long, Offered> sent = new HashMap<>();

    /**
     * Notes the routes {@code peer} was sent with as {@code wire} (and forgets them for a peer that is routed nothing
     * beyond its own addresses).
     */
    public void note(Node peer, io.meshcontrol.core.wire.Node wire) {
        if (peer.approvedRoutes().isEmpty() && Objects.equals(wire.allowedIps(), wire.addresses())) {
            if (!sent.isEmpty()) { // a full map asks for every peer, and most networks have few routers
                sent.remove(peer.id());
            }
        } else {
            sent.put(peer.id(), Offered.of(wire));
        }
    }

    /** Whether {@code wire} offers other routes than the peer {@code id} was last sent with. */
    public boolean differ(long id, io.meshcontrol.core.wire.Node wire) {
        return !Offered.of(wire).equals(sent.get(id));
    }

    public boolean contains(long id) {
        return sent.containsKey(id);
    }

    public void forget(long id) {
        sent.remove(id);
    }

    public void clear() {
        sent.clear();
    }

    /** The peers whose routes are kept (a view: copy it before changing this). */
    public Set<Long> peerIds() {
        return Collections.unmodifiableSet(sent.keySet());
    }
}
