package io.meshcontrol.server.v1;

import io.meshcontrol.core.lock.LockedNode;
import io.meshcontrol.core.state.TailnetLock;
import io.meshcontrol.api.BulkRequest;
import io.meshcontrol.api.BulkResult;
import io.meshcontrol.api.GlobalExitNodeRequest;
import io.meshcontrol.api.KeyExpiryRequest;
import io.meshcontrol.api.NodeList;
import io.meshcontrol.api.NodeRequest;
import io.meshcontrol.api.NodeView;
import io.meshcontrol.api.RoutesRequest;
import io.meshcontrol.core.MeshException;
import io.meshcontrol.core.location.GeoDatabase;
import io.meshcontrol.core.location.Locations;
import io.meshcontrol.core.model.Node;
import io.meshcontrol.core.netmap.context.MapContext;
import io.meshcontrol.core.routes.RouteTable;
import io.meshcontrol.core.state.BulkOutcome;
import io.meshcontrol.core.state.MapContextState;
import io.meshcontrol.core.state.NetworkSnapshot;
import io.meshcontrol.core.state.Nodes;
import io.meshcontrol.core.state.RouteApprovals;
import io.meshcontrol.core.state.RouteElection;
import io.meshcontrol.core.state.Snapshots;
import io.meshcontrol.server.http.ApiRequest;
import io.meshcontrol.server.http.Reply;
import io.meshcontrol.server.http.Routes;
import java.time.Clock;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;

/**
 * {@code /api/v1/node}: list (filtered, sorted, paged: {@link NodeQuery}), show, rename, tag, expire, turn key expiry
 * on or off, approve, suspend, delete, one node or many at once (bulk); read and approve its routes, mark it as a
 * global exit node.
 */
public final class NodeRoutes {

    private final Nodes nodes;
    private final RouteApprovals approvals;
    private final RouteElection election;
    private final Snapshots snapshots;
    private final Clock clock;

    /** @param snapshots where owners are looked up: one listing must not cost a query per node */
    private final Locations locations;

    /** the latest client release and the relay map, for each node's client facts */
    private final MapContextState context;
    private final HostinfoFieldsCache hostinfo = new HostinfoFieldsCache();

    private final TailnetLock lock;

    public NodeRoutes(Nodes nodes, RouteApprovals approvals, RouteElection election, Snapshots snapshots, Clock clock,
            Locations locations, MapContextState context, TailnetLock lock) {
        this.lock = lock;
        this.locations = locations;
        this.context = context;
        this.nodes = nodes;
        this.approvals = approvals;
        this.election = election;
        this.snapshots = snapshots;
        this.clock = clock;
    }

    public void register(Routes routes) {
        routes.add("GET", "/api/v1/node", request -> {
            NodeQuery query = NodeQuery.from(request, clock.instant());
            List<NodeView> matching = views(nodes.list(request.caller())).stream().filter(query.filter()).toList();
            return Reply.ok(new NodeList(query.page(matching), matching.size()));
        });
        routes.add("POST", "/api/v1/node/bulk", request -> {
            BulkRequest body = request.requiredBody(BulkRequest.class);
            Nodes.BulkAction action = Nodes.BulkAction.fromWireName(body.action() == null ? "" : body.action())
                    .orElseThrow(() -> MeshException.invalid("action must be one of " + String.join(", ",
                            Arrays.stream(Nodes.BulkAction.values()).map(Nodes.BulkAction::wireName).toList())
                            + ", got " + (body.action() == null ? "none" : "\"" + body.action() + "\"")));
            BulkOutcome<Long> outcome = nodes.bulk(request.caller(), action, BulkIds.numbers(body.ids()), body.tags());
            return Reply.ok(new BulkResult(action.wireName(), BulkIds.texts(outcome.changed()),
                    BulkIds.texts(outcome.unchanged())));
        });
        routes.add("GET", "/api/v1/node/{id}", request -> Reply.ok(view(nodes.get(request.caller(), request.pathId("id")))));
        routes.add("POST", "/api/v1/node/{id}/rename", request -> {
            NodeRequest body = request.requiredBody(NodeRequest.class);
            if (body.name() == null) {
                throw MeshException.invalid("rename needs the field \"name\"");
            }
            return Reply.ok(view(nodes.rename(request.caller(), id(request), body.name())));
        });
        routes.add("POST", "/api/v1/node/{id}/tags", request -> {
            NodeRequest body = request.requiredBody(NodeRequest.class);
            if (body.tags() == null) {
                throw MeshException.invalid("tagging needs the field \"tags\"");
            }
            return Reply.ok(view(nodes.setTags(request.caller(), id(request), body.tags())));
        });
        routes.add("POST", "/api/v1/node/{id}/expire", request -> Reply.ok(view(nodes.expire(request.caller(), id(request)))));
        routes.add("POST", "/api/v1/node/{id}/key-expiry", request -> {
            KeyExpiryRequest body = request.requiredBody(KeyExpiryRequest.class);
            if (body.disabled() == null) {
                throw MeshException.invalid("key expiry needs the field \"disabled\" (true or false)");
            }
            return Reply.ok(view(nodes.setKeyExpiryDisabled(request.caller(), id(request), body.disabled())));
        });
        routes.add("POST", "/api/v1/node/{id}/approve", request -> Reply.ok(view(nodes.approve(request.caller(), id(request)))));
        routes.add("POST", "/api/v1/node/{id}/suspend", request -> Reply.ok(view(nodes.suspend(request.caller(), id(request)))));
        routes.add("POST", "/api/v1/node/{id}/unsuspend",
                request -> Reply.ok(view(nodes.unsuspend(request.caller(), id(request)))));
        routes.add("GET", "/api/v1/node/{id}/routes", request -> Reply.ok(Views.routes(
                approvals.get(request.caller(), id(request)), election.current())));
        routes.add("POST", "/api/v1/node/{id}/routes", request -> {
            RoutesRequest body = request.requiredBody(RoutesRequest.class);
            return Reply.ok(Views.routes(approvals.setApproved(request.caller(), id(request), body.routes()),
                    election.current()));
        });
        routes.add("POST", "/api/v1/node/{id}/global-exit-node", request -> {
            GlobalExitNodeRequest body = request.body(GlobalExitNodeRequest.class);
            Node node = body == null ? approvals.setGlobalExitNode(request.caller(), id(request), null, null)
                    : approvals.setGlobalExitNode(request.caller(), id(request), body.enabled(), body.priority());
            return Reply.ok(Views.routes(node, election.current()));
        });
        routes.add("DELETE", "/api/v1/node/{id}", request -> {
            nodes.delete(request.caller(), id(request));
            return Reply.noContent();
        });
    }

    private static long id(ApiRequest request) {
        return request.pathId("id");
    }

    private NodeView view(Node node) {
        return views(List.of(node)).getFirst();
    }

    /** Views of {@code list}, from one snapshot, route table and map context: one listing, one point in time. */
    private List<NodeView> views(List<Node> list) {
        NetworkSnapshot snapshot = snapshots.current();
        RouteTable table = election.current();
        MapContext map = context.current();
        GeoDatabase places = locations.current();
        Instant now = clock.instant();
        return list.stream().map(node -> Views.node(node, snapshot.user(node.userId()).orElse(null),
                snapshot.isOnline(node.id()), table, now, places, map, hostinfo.of(node.id(), node.hostinfo()))
                .withTailnetLockSign(lock.lockedOut(node).map(LockedNode::signCommand).orElse(null))).toList();
    }
}
