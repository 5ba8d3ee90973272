package io.meshcontrol.server.control;

import io.meshcontrol.core.MeshException;
import io.meshcontrol.core.event.MeshEvent;
import io.meshcontrol.core.key.MachinePublicKey;
import io.meshcontrol.core.model.Node;
import io.meshcontrol.core.state.Nodes;
import io.meshcontrol.core.wire.SSHEventNotifyRequest;
import io.undertow.server.HttpServerExchange;

/**
 * {@code POST /machine/ssh/recording-failure} ({@link SSHEventNotifyRequest#NOTIFY_PATH}): a node reports that an SSH
 * session into it could not be recorded, as its SSH policy's {@code onRecordingFailure.NotifyURL} asks. The report
 * becomes an {@code sshRecordingFailed} event for the node behind the connection's machine key (the body's node key
 * is the client's word only). The client expects 201 and logs anything else.
 */
public final class SshRecordingFailureEndpoint implements MachineHandler {

    private final Nodes nodes;

    public SshRecordingFailureEndpoint(Nodes nodes) {
        this.nodes = nodes;
    }

    @Override
    public void handle(HttpServerExchange exchange, ControlConnection connection) throws Exception {
        report(connection.machineKey(), RegisterEndpoint.readRequest(exchange, SSHEventNotifyRequest.class));
        exchange.setStatusCode(201);
    }

    Node report(MachinePublicKey machineKey, SSHEventNotifyRequest request) {
        return nodes.sshRecordingFailed(machineKey, new Nodes.SshRecordingReport(event(request.eventType()),
                request.srcNode(), request.sshUser(), request.localUser(), request.recordingAttempts().stream()
                        .map(a -> new MeshEvent.RecordingAttempt(a.recorder(), a.failureMessage())).toList()));
    }

    /** The vendor's SSHEventType as the spec's {@code event} word. */
    private static String event(int type) {
        return switch (type) {
            case 1 -> "rejected";
            case 2 -> "terminated";
            case 3 -> "failed";
            default -> throw MeshException.invalid("unknown SSH event type " + type + " (EventType): expected 1, 2 or 3");
        };
    }
}
