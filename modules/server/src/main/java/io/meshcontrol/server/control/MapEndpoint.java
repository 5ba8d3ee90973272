package io.meshcontrol.server.control;

import io.meshcontrol.core.state.Nodes;
import io.meshcontrol.core.state.Presence;
import io.meshcontrol.core.state.Snapshots;
import io.meshcontrol.core.MeshException;
import io.meshcontrol.core.key.DiscoPublicKey;
import io.meshcontrol.core.model.Node;
import io.meshcontrol.core.net.IpAddressPort;
import io.meshcontrol.core.net.IpPrefix;
import io.meshcontrol.core.netmap.MapSession;
import io.meshcontrol.core.netmap.MapSessions;
import io.meshcontrol.core.netmap.frames.MapFrames;
import io.meshcontrol.core.wire.CapabilityVersion;
import io.meshcontrol.core.wire.Hostinfo;
import io.meshcontrol.core.wire.MapRequest;
import io.undertow.server.HttpServerExchange;
import io.undertow.util.StatusCodes;
import java.io.IOException;
import java.util.List;
import java.util.Optional;

/**
 * {@code POST /machine/map}: applies what the client reports (endpoints, disco key, Hostinfo), then either
 * answers a lite update with an empty 200, sends one map, or holds a streaming session. The HTTP side of map
 * streaming, and its only one: the maps themselves come from {@link MapSessions}.
 */
public final class MapEndpoint implements MachineHandler {

    private final Snapshots snapshots;
    private final Presence presence;
    private final Nodes nodes;
    private final MapSessions sessions;

    /** @param presence told when a node's stream opens and ends; {@code nodes} takes what clients report */
    public MapEndpoint(Snapshots snapshots, Presence presence, Nodes nodes, MapSessions sessions) {
        this.snapshots = snapshots;
        this.presence = presence;
        this.nodes = nodes;
        this.sessions = sessions;
    }

    @Override
    public void handle(HttpServerExchange exchange, ControlConnection connection) throws Exception {
        long started = System.nanoTime();
        MapRequest request = RegisterEndpoint.readRequest(exchange, MapRequest.class);
        if (!CapabilityVersion.isSupported(request.version())) {
            throw MeshException.invalid("this Tailscale client is too old for this server (capability version "
                    + request.version() + "); use Tailscale 1.80 or newer");
        }
        Optional<Node> node = snapshots.current().nodeByKey(request.nodeKey())
                .filter(n -> n.machineKey().equals(connection.machineKey()));
        if (node.isEmpty()) {
            throw MeshException.unauthenticated("node key not registered; register first");
        }
        Node current = applyClientState(node.get(), request);
        if (request.isLiteUpdate()) {
            exchange.setStatusCode(StatusCodes.OK);
            return;
        }
        MapFrames frames = MapFrames.forRequest(request);
        MapStreamOutput out = new MapStreamOutput(exchange, connection.ioTasks());
        if (!request.stream()) {
            sessions.writeSingleMap(current.id(), request.version(), frames, out, started);
            out.close();
            return;
        }
        MapSession session = sessions.open(current.id(), request.version(), frames, out);
        // A client that goes away (process ended, network gone) closes the connection: end the stream at once
        // rather than at the next keep-alive, so that peers and the ephemeral reaper learn it promptly.
        exchange.getConnection().addCloseListener(closedConnection -> session.close());
        presence.connected(current);
        try {
            session.run(started);
        } finally {
            presence.disconnected(current);
        }
        endStream(out);
    }

    /** Ends a stream the server ended (a newer stream replaced it, the node was deleted), or one the client left. */
    private static void endStream(MapStreamOutput out) {
        try {
            out.close();
        } catch (IOException gone) {
            // The client left first: there is no one to tell.
        }
    }

    /**
     * Takes what the request reports; absent parts stay as they were (a Hostinfo without NetInfo keeps the
     * previous NetInfo). A Hostinfo replaces the advertised routes with its RoutableIPs. Writing happens only when
     * something differs; a report that matches the snapshot, from a node with no route waiting for approval, costs
     * no database access at all (a reconnecting client repeats itself).
     */
    private Node applyClientState(Node node, MapRequest request) {
        String hostinfo = request.hostinfo() == null ? null
                : request.hostinfo().withNetInfoFrom(() -> Hostinfo.parse(node.hostinfo())).toJson();
        List<String> endpoints = request.endpoints().isEmpty() ? null
                : request.endpoints().stream().map(IpAddressPort::toString).toList();
        DiscoPublicKey disco = request.discoKey().isZero() ? null : request.discoKey();
        List<IpPrefix> advertised = request.hostinfo() == null ? null : request.hostinfo().fields().routableIps();
        Node reported = node.withClientState(disco == null ? node.discoKey() : disco,
                endpoints == null ? node.endpoints() : endpoints, hostinfo == null ? node.hostinfo() : hostinfo,
                advertised == null ? node.advertisedRoutes() : advertised);
        // An advertised route not approved yet may be auto-approved by now: that check needs the transaction.
        if (reported.equals(node) && node.approvedRoutes().containsAll(node.advertisedRoutes())) {
            return node;
        }
        return nodes.updateFromClient(node.id(), disco, endpoints, hostinfo, advertised);
    }
}
