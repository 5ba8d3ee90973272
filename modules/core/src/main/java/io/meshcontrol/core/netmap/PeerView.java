package io.meshcontrol.core.netmap;

import io.meshcontrol.core.model.Node;
import io.meshcontrol.core.net.IpPrefix;
import io.meshcontrol.core.netmap.encoding.EncodedNodes;
import io.meshcontrol.core.routes.RoutePrefixes;
import io.meshcontrol.core.routes.RouteTable;
import io.meshcontrol.core.state.NetworkSnapshot.NodeEntry;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * How one node sees its peers in one message: whom it sees, and each peer's wire form, the shared one from
 * {@link PeerForms} except for routers, which are encoded for this viewer when the policy, app connectors or
 * regional routing offer it other routes than the shared form holds.
 *
 * @param region the viewer's home DERP region, read only while some prefix is steered by region
 */
record PeerView(PeerForms forms, int capVersion, Node self, int region, MapInputs in) {

    /** Whether the viewer has {@code peer} among its peers. */
    boolean sees(Node peer) {
        return MapContents.isVisible(self, peer, in.access());
    }

    /** The shared form of the peer, as every viewer that is offered all its routes gets it. */
    EncodedNodes.Encoded shared(NodeEntry entry) {
        return forms.peer(entry, in, capVersion);
    }

    /**
     * The peer as this viewer sees it: of the routes a router serves, only those the policy lets this node use (or
     * answer through) are in its {@code AllowedIPs} and {@code PrimaryRoutes}, as the vendor sends them.
     */
    EncodedNodes.Encoded peer(NodeEntry entry) {
        return forViewer(entry, shared(entry));
    }

    /**
     * The shared form itself, or the router encoded for this viewer: when it is offered fewer routes (those the
     * policy does not let it use, and an app connector's public app routes when both are behind the same public
     * address), or when regional routing steers this viewer to it for other prefixes than its tailnet-wide ones. Its
     * own addresses and those of the services it hosts always stay.
     */
    EncodedNodes.Encoded forViewer(NodeEntry entry, EncodedNodes.Encoded shared) {
        Node peer = entry.node();
        if (peer.approvedRoutes().isEmpty()) {
            return shared;
        }
        io.meshcontrol.core.wire.Node wire = shared.node();
        List<IpPrefix> allowedIps = wire.allowedIps();
        List<IpPrefix> primaryRoutes = wire.primaryRoutes();
        RouteTable routes = in.routes();
        if (routes.steersByRegion()) {
            List<IpPrefix> steered = routes.primaryRoutesFor(peer.id(), region);
            if (!steered.equals(primaryRoutes)) {
                // Keep what is not a subnet route (addresses, hosted services, exit routes); the steered subnets follow.
                List<IpPrefix> allowed = new ArrayList<>(wire.allowedIps().stream()
                        .filter(p -> !peer.approvedRoutes().contains(p) || RoutePrefixes.isExit(p)).toList());
                allowed.addAll(steered);
                allowedIps = RoutePrefixes.sorted(allowed);
                primaryRoutes = steered;
            }
        }
        Set<String> offered = new HashSet<>(in.access().peerRoutes(self, peer));
        in.context().apps().skippedRoutes(self, peer).forEach(r -> offered.remove(r.toString()));
        List<IpPrefix> allowed = allowedIps.stream()
                .filter(p -> offered.contains(p.toString()) || !peer.approvedRoutes().contains(p)).toList();
        List<IpPrefix> primary = primaryRoutes.stream().filter(p -> offered.contains(p.toString())).toList();
        if (allowed.equals(wire.allowedIps()) && primary.equals(wire.primaryRoutes())) {
            return shared;
        }
        return EncodedNodes.Encoded.of(wire.toBuilder().allowedIps(allowed).primaryRoutes(primary).build());
    }
}
