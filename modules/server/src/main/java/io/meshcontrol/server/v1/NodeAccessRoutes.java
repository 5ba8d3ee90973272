package io.meshcontrol.server.v1;

import io.meshcontrol.api.PacketFilterView;
import io.meshcontrol.api.PeerList;
import io.meshcontrol.api.PeerView;
import io.meshcontrol.api.PolicyPreview;
import io.meshcontrol.api.PolicyPreviewRequest;
import io.meshcontrol.core.MeshException;
import io.meshcontrol.core.model.Node;
import io.meshcontrol.core.model.User;
import io.meshcontrol.core.netmap.MapContents;
import io.meshcontrol.core.netmap.MapInputs;
import io.meshcontrol.core.policy.CompiledPolicy;
import io.meshcontrol.core.state.Nodes;
import io.meshcontrol.core.state.Policies;
import io.meshcontrol.server.http.ApiRequest;
import io.meshcontrol.server.http.Reply;
import io.meshcontrol.server.http.Routes;
import java.util.List;
import java.util.regex.Pattern;

/**
 * What the policy gives a node: its peers and its packet filter exactly as its map carries them
 * ({@code /api/v1/node/{id}/peers}, {@code /api/v1/node/{id}/packet-filter}, read from {@link MapContents}, which map
 * streams build from too), and what it may reach under a policy not saved yet ({@code /api/v1/policy/preview}).
 * Reading them needs what reading the node needs; the preview needs reading the policy as well.
 */
public final class NodeAccessRoutes {

    private static final Pattern NODE_ID = Pattern.compile("0|[1-9][0-9]{0,17}");
    private static final Pattern COUNTRY = Pattern.compile("[A-Za-z]{2}");

    private final Nodes nodes;
    private final Policies policies;
    private final MapInputs.Source maps;

    /** @param maps where map streams take their inputs: the snapshot, the compiled policy and the map context */
    public NodeAccessRoutes(Nodes nodes, Policies policies, MapInputs.Source maps) {
        this.nodes = nodes;
        this.policies = policies;
        this.maps = maps;
    }

    public void register(Routes routes) {
        routes.add("GET", "/api/v1/node/{id}/peers", request -> {
            InMap self = inMap(request);
            return Reply.ok(new PeerList(MapContents.peers(self.node(), self.in()).stream()
                    .map(peer -> peer(peer, self.in())).toList()));
        });
        routes.add("GET", "/api/v1/node/{id}/packet-filter", request -> {
            InMap self = inMap(request);
            return Reply.ok(new PacketFilterView(MapContents.packetFilter(self.node(), self.in()).stream()
                    .map(Views::filterRule).toList()));
        });
        routes.add("POST", "/api/v1/policy/preview", this::preview);
    }

    private Node node(ApiRequest request, long id) {
        return nodes.get(request.caller(), id);
    }

    /** The path's node (as the caller may read it) in the inputs map streams use now. */
    private record InMap(Node node, MapInputs in) {
    }

    private InMap inMap(ApiRequest request) {
        Node self = node(request, request.pathId("id"));
        MapInputs in = maps.current();
        return new InMap(in.snapshot().node(self.id()).orElse(self), in);
    }

    private Reply preview(ApiRequest request) {
        PolicyPreviewRequest body = request.requiredBody(PolicyPreviewRequest.class);
        // Both scopes before any lookup: a caller that may not read the policy learns nothing of which nodes exist.
        request.caller().require(Policies.READ_SCOPE);
        request.caller().require(Nodes.READ_SCOPE);
        if (body.node() == null || !NODE_ID.matcher(body.node()).matches()) {
            throw MeshException.invalid("the body needs the field \"node\" with a node id (digits 0-9), got "
                    + (body.node() == null ? "none" : "\"" + body.node() + "\""));
        }
        Node node = node(request, Long.parseLong(body.node()));
        MapInputs in = maps.current();
        String text = body.policy() != null ? body.policy() : policies.get(request.caller()).policy().text();
        // The policy in force is the compilation the maps use; a text not saved is compiled the same way.
        if (body.city() != null && body.country() == null) {
            throw MeshException.invalid("\"city\" needs \"country\"");
        }
        if (body.country() != null && !COUNTRY.matcher(body.country()).matches()) {
            throw MeshException.invalid("\"country\" is a two-letter country code (ISO 3166-1 alpha-2), got \""
                    + body.country() + "\"");
        }
        CompiledPolicy compiled = body.country() != null
                ? policies.compile(request.caller(), text, node.id(), body.country(), body.city())
                : body.policy() != null ? policies.compile(request.caller(), body.policy()) : in.access().compiled();
        List<PolicyPreview.Reachable> reach = compiled.reachableFrom(node.id()).stream()
                .flatMap(reachable -> in.snapshot().node(reachable.nodeId()).stream()
                        .map(target -> new PolicyPreview.Reachable(Long.toString(target.id()), target.givenName(),
                                target.ipv4(), target.ipv6(), reachable.rules().stream().map(Views::filterRule)
                                        .toList())))
                .toList();
        String address = node.ipv4() != null ? node.ipv4() : node.ipv6();
        List<PolicyPreview.Rule> rules = policies.preview(request.caller(), text, "user", address).matches().stream()
                .map(match -> new PolicyPreview.Rule(match.users(), match.ports(), match.lineNumber(), match.via()))
                .toList();
        return Reply.ok(new PolicyPreview(Long.toString(node.id()), reach, rules));
    }

    private static PeerView peer(Node peer, MapInputs in) {
        User owner = peer.tags().isEmpty() ? in.snapshot().user(peer.userId()).orElse(null) : null;
        return new PeerView(Long.toString(peer.id()), peer.givenName(), owner == null ? null : owner.name(),
                peer.tags(), peer.ipv4(), peer.ipv6(), in.snapshot().isOnline(peer.id()));
    }
}
