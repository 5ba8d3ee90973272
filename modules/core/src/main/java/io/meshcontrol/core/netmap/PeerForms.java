package io.meshcontrol.core.netmap;

import io.meshcontrol.core.routes.RouteTable;
import io.meshcontrol.core.state.NetworkSnapshot.NodeEntry;
import io.meshcontrol.core.wire.CapabilityVersion;
import io.meshcontrol.core.wire.EncodedNodes;
import io.meshcontrol.core.wire.IpPrefix;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Every node's wire form as its peers see it, built (Hostinfo parsed, JSON encoded) once per change of the node and
 * shared by all map sessions: what a session sends for a peer is this object, not a copy, and what it remembers of a
 * peer is only whether it sent it (see {@link MapSessionState}). One instance per server; thread-safe.
 *
 * <p>A form is reused while it was built from the same snapshot entry (the entry's version changes with the node's
 * row, its online state, and when the route election changes what it serves), the same MagicDNS suffix, the same
 * routes served and the same key-expired state; clients before capability
 * version {@value CapabilityVersion#HOME_DERP} get a form of their own (the legacy DERP string). Anything else a
 * peer's wire form comes to depend on must be part of that check.
 */
public final class PeerForms {

    private record Form(long version, boolean expired, String baseDomain, List<IpPrefix> served,
            EncodedNodes.Encoded encoded) {
    }

    private final Map<Long, Form> current = new ConcurrentHashMap<>();
    private final Map<Long, Form> legacy = new ConcurrentHashMap<>();

    /**
     * The node as a peer with this capability version sees it, before any filtering of its routes for one viewer.
     *
     * @param routes who serves which route now (a node's primary routes are part of its form)
     */
    public EncodedNodes.Encoded peer(NodeEntry entry, RouteTable routes, MapContext context, int capVersion,
            Instant now) {
        Map<Long, Form> forms = capVersion < CapabilityVersion.HOME_DERP ? legacy : current;
        long id = entry.node().id();
        boolean expired = entry.node().isKeyExpired(now);
        List<IpPrefix> served = routes.servedBy(entry.node());
        Form form = forms.get(id);
        if (form != null && form.version() == entry.version() && form.expired() == expired
                && form.baseDomain().equals(context.baseDomain()) && form.served().equals(served)) {
            return form.encoded();
        }
        Form built = new Form(entry.version(), expired, context.baseDomain(), served, EncodedNodes.Encoded.of(
                WireNodes.of(entry.node(), routes, context, entry.online(), false, capVersion, now)));
        // Sessions on different snapshots may race: keep the newer node state.
        forms.merge(id, built, (old, fresh) -> old.version() > fresh.version() ? old : fresh);
        return built.encoded();
    }

    /** Drops a deleted node's forms. */
    public void forget(long nodeId) {
        current.remove(nodeId);
        legacy.remove(nodeId);
    }

    /** How many nodes have a form (for tests and diagnostics). */
    public int size() {
        return current.size() + legacy.size();
    }
}
