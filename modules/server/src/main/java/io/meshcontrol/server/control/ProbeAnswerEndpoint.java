package io.meshcontrol.server.control;

import io.meshcontrol.core.state.Snapshots;
import io.meshcontrol.core.MeshException;
import io.meshcontrol.core.model.Node;
import io.meshcontrol.core.netmap.RouterProbes;
import io.undertow.server.HttpServerExchange;
import io.undertow.util.StatusCodes;
import java.util.Deque;

/**
 * {@code HEAD /machine/ping-response?id=<token>}: a router answering its health probe over its own Noise connection.
 * Only the machine the probe was sent to can answer it: the token is checked against the node of the connection's
 * machine key.
 */
public final class ProbeAnswerEndpoint implements MachineHandler {

    private final Snapshots snapshots;
    private final RouterProbes probes;

    public ProbeAnswerEndpoint(Snapshots snapshots, RouterProbes probes) {
        this.snapshots = snapshots;
        this.probes = probes;
    }

    @Override
    public void handle(HttpServerExchange exchange, ControlConnection connection) {
        Deque<String> ids = exchange.getQueryParameters().get("id");
        Node node = snapshots.current().nodes().values().stream()
                .filter(n -> n.machineKey().equals(connection.machineKey())).findFirst()
                .orElseThrow(() -> MeshException.notFound("no node for this machine"));
        if (ids == null || !probes.answered(ids.getFirst(), node.id())) {
            throw MeshException.notFound("no probe pending with this id");
        }
        exchange.setStatusCode(StatusCodes.OK);
    }
}
