package io.meshcontrol.bench.jmh;

import io.meshcontrol.core.netmap.AccessRules;
import io.meshcontrol.core.netmap.context.MapContext;
import io.meshcontrol.core.netmap.MapInputs;
import io.meshcontrol.core.netmap.MapSessionState;
import io.meshcontrol.core.netmap.PeerForms;
import io.meshcontrol.core.routes.RouteTable;
import io.meshcontrol.core.policy.Policy;
import io.meshcontrol.core.state.NetworkSnapshot;
import io.meshcontrol.core.wire.DERPMap;
import io.meshcontrol.core.wire.DNSConfig;
import io.meshcontrol.core.wire.MapResponse;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * Glue for "build one node's full map from a snapshot": what a map stream does for its first message. The only
 * class of the map benchmarks that calls core's map building; adapt it here when core's entry points change.
 */
public final class MapBuilding {

    /** The capability version of the newest pinned client (tailscale v1.102.5). */
    public static final int CAP_VERSION = 142;
    public static final MapContext CONTEXT = new MapContext("TbenchCNTRL", "mesh.internal",
            DNSConfig.builder().domains(List.of("mesh.internal")).proxied(true).build(), new DERPMap(null, Map.of(), false));

    private final NetworkSnapshot snapshot;
    private final AccessRules access;
    private final Instant now = Instant.parse("2026-11-22T00:00:00Z");

    public MapBuilding(NetworkSnapshot snapshot, Policy policy) {
        this.snapshot = snapshot;
        this.access = AccessRules.compile(policy, snapshot);
    }

    /**
     * Node 1's first map with {@code peers} peers under allow-all ({@link Policy#EMPTY}): a synthetic network of
     * {@code peers + 1} nodes, 10 per user (at least one user). What the encoding and sealing benchmarks work on.
     */
    public static MapResponse allowAllFullMap(int peers) {
        int nodes = peers + 1;
        return new MapBuilding(SyntheticNetwork.snapshot(nodes, Math.max(1, nodes / 10)), Policy.EMPTY).fullMap(1);
    }

    /**
     * The first map of node {@code nodeId}'s stream (peers offline, as {@code NetworkSnapshot.of} makes them), with
     * forms of its own: every peer's form is built for this map, as for the first stream after a change.
     */
    public MapResponse fullMap(long nodeId) {
        return fullMap(nodeId, new PeerForms());
    }

    /** The first map of node {@code nodeId}'s stream, from peer forms shared with other streams (a server's). */
    public MapResponse fullMap(long nodeId, PeerForms forms) {
        return new MapSessionState(nodeId, CAP_VERSION, forms).initial(inputs());
    }

    /** Builds every node's peer form into {@code forms}, as the first full map after a change does; returns the count. */
    public int buildPeerForms(PeerForms forms) {
        MapInputs in = inputs();
        int built = 0;
        for (NetworkSnapshot.NodeEntry entry : snapshot.entriesInIdOrder()) {
            built += forms.peer(entry, in, CAP_VERSION) == null ? 0 : 1;
        }
        return built;
    }

    private MapInputs inputs() {
        return new MapInputs(snapshot, access, RouteTable.EMPTY, CONTEXT, now);
    }
}
