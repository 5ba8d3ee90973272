package io.meshcontrol.server.v1;

import io.meshcontrol.core.state.RouteElection;
import io.meshcontrol.core.state.Snapshots;
import io.meshcontrol.api.DebugNodeRequest;
import io.meshcontrol.core.MeshException;
import io.meshcontrol.core.key.KeyFormatException;
import io.meshcontrol.core.key.MachinePrivateKey;
import io.meshcontrol.core.key.NodePrivateKey;
import io.meshcontrol.core.key.NodePublicKey;
import io.meshcontrol.core.net.IpPrefix;
import io.meshcontrol.core.state.Registrations;
import io.meshcontrol.server.http.Reply;
import io.meshcontrol.server.http.Routes;
import java.time.Clock;
import java.util.List;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code POST /api/v1/debug/node}: registers a machine that has no client behind it, for trying maps, policies and
 * the console with made-up machines. Outside the supported API (spec, Versioning item 6); registered, and in the
 * OpenAPI document, only with {@code debug.node_api_enabled}.
 */
public final class DebugNodeRoutes {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final Registrations registrations;
    private final Snapshots snapshots;
    private final RouteElection routeElection;
    private final Clock clock;

    public DebugNodeRoutes(Registrations registrations, Snapshots snapshots, RouteElection routeElection, Clock clock) {
        this.registrations = registrations;
        this.snapshots = snapshots;
        this.routeElection = routeElection;
        this.clock = clock;
    }

    public void register(Routes routes) {
        routes.add("POST", "/api/v1/debug/node", request -> {
            DebugNodeRequest body = request.requiredBody(DebugNodeRequest.class);
            if (body.user() == null || body.user().isBlank() || body.name() == null || body.name().isBlank()) {
                throw MeshException.invalid("debug/node needs \"user\" and \"name\"");
            }
            NodePublicKey nodeKey = body.nodeKey() == null ? NodePrivateKey.generate().publicKey() : nodeKey(body.nodeKey());
            ObjectNode hostinfo = JSON.createObjectNode().put("Hostname", body.name());
            var routable = hostinfo.putArray("RoutableIPs");
            for (String route : body.routes() == null ? List.<String>of() : body.routes()) {
                routable.add(prefix(route).toString());
            }
            Registrations.Registered registered = registrations.forUserWithoutClient(request.caller(),
                    new Registrations.Request(MachinePrivateKey.generate().publicKey(), nodeKey, body.name(),
                            JSON.writeValueAsString(hostinfo)), body.user());
            return Reply.ok(Views.node(registered.node(), registered.user(),
                    snapshots.current().isOnline(registered.node().id()), routeElection.current(),
                    clock.instant()));
        });
    }

    private static NodePublicKey nodeKey(String text) {
        try {
            return NodePublicKey.parse(text);
        } catch (KeyFormatException e) {
            throw MeshException.invalid("nodeKey: " + e.getMessage());
        }
    }

    private static IpPrefix prefix(String text) {
        try {
            return IpPrefix.parse(text);
        } catch (IllegalArgumentException e) {
            throw MeshException.invalid("routes: \"" + text + "\" is not a CIDR prefix");
        }
    }
}
