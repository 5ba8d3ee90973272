package io.meshcontrol.core.netmap;

import io.meshcontrol.core.netmap.context.MapContext;
import io.meshcontrol.core.model.Node;
import io.meshcontrol.core.routes.RoutePrefixes;
import io.meshcontrol.core.routes.ExitNodeSteering;
import io.meshcontrol.core.routes.RouteTable;
import io.meshcontrol.core.wire.Base64Bytes;
import io.meshcontrol.core.wire.Location;
import io.meshcontrol.core.wire.RawJson;
import java.util.HashMap;
import java.util.Map;
import io.meshcontrol.core.wire.CapabilityVersion;
import io.meshcontrol.core.wire.Hostinfo;
import io.meshcontrol.core.net.IpAddressPort;
import io.meshcontrol.core.net.IpPrefix;
import java.util.ArrayList;
import java.util.List;

/** A stored node as the control protocol shows it, to itself or to a peer. */
public final class WireNodes {

    /**
     * The user id tagged nodes report: they belong to their tags, and clients want some user. Kept far
     * from the sequential ids of real users.
     */
    public static final long TAGGED_DEVICES_USER_ID = 2147455555L;

    private WireNodes() {
    }

    /**
     * The node as its own map shows it (online, since it is asking). Of {@code in} only the routes, the context and
     * the time are read, as for {@link #peer}.
     *
     * @param capVersion of the client that receives this node (older clients need the legacy DERP string)
     */
    public static io.meshcontrol.core.wire.Node self(Node node, MapInputs in, int capVersion) {
        return of(node, true, true, in, capVersion);
    }

    /**
     * The node as its peers see it, before any filtering of its routes for one viewer. Of {@code in} only the routes
     * (the node's primary subnet routes and its exit routes are routed to it, and whether it is a suggested or
     * prioritized exit node), the MagicDNS suffix and the time are read: {@link PeerForms} keeps a form while these stay the same.
     *
     * @param online whether it holds a map stream now
     * @param capVersion of the client that receives this node (older clients need the legacy DERP string)
     */
    public static io.meshcontrol.core.wire.Node peer(Node node, boolean online, MapInputs in, int capVersion) {
        return of(node, online, false, in, capVersion);
    }

    private static io.meshcontrol.core.wire.Node of(Node node, boolean online, boolean self, MapInputs in,
            int capVersion) {
        RouteTable routes = in.routes();
        MapContext context = in.context();
        List<IpPrefix> addresses = List.of(IpPrefix.parse(node.ipv4() + "/32"), IpPrefix.parse(node.ipv6() + "/128"));
        List<IpPrefix> served = self ? routes.servedBy(node) : routedTo(node, in);
        List<IpPrefix> allowedIps = addresses;
        if (!served.isEmpty()) {
            allowedIps = new ArrayList<>(addresses);
            allowedIps.addAll(served);
            allowedIps = RoutePrefixes.sorted(allowedIps);
        }
        Hostinfo hostinfo = Hostinfo.parse(node.hostinfo());
        int homeDerp = homeDerp(hostinfo);
        ExitNodeSteering exits = routes.exits();
        int priority = self ? 0 : exits.locationPriority(node);
        if (priority > 0) {
            // Clients never send a Location of their own: control adds it, here with only the mark's priority.
            hostinfo = hostinfo.with("Location", new Location(null, null, null, null, 0, 0, priority));
        }
        io.meshcontrol.core.wire.Node.Builder wire = io.meshcontrol.core.wire.Node.builder()
                .id(node.id())
                .stableId(node.stableId())
                .name(node.givenName() + "." + context.baseDomain() + ".")
                .user(node.userId() == null ? TAGGED_DEVICES_USER_ID : node.userId())
                .key(node.nodeKey())
                .keyExpiry(node.keyExpiry())
                .machine(node.machineKey())
                .discoKey(node.discoKey())
                .addresses(addresses)
                .allowedIps(allowedIps)
                .primaryRoutes(routes.primaryRoutes(node.id()))
                .endpoints(endpoints(node.endpoints()))
                .homeDerp(homeDerp)
                .hostinfo(hostinfo)
                .created(node.createdAt())
                .tags(node.tags())
                .online(online)
                .lastSeen(online ? null : node.lastSeen())
                .machineAuthorized(node.authorized())
                .expired(node.isKeyExpired(in.now()))
                // As submitted: peers under the tailnet lock verify it themselves and drop a node without one.
                .keySignature(node.keySignature() == null ? null : Base64Bytes.parse(node.keySignature()));
        if (homeDerp != 0 && capVersion < CapabilityVersion.HOME_DERP) {
            wire.legacyDerp(io.meshcontrol.core.wire.Node.legacyDerpString(homeDerp));
        }
        if (self) {
            wire.stableTailnetId(context.tailnetId());
        } else if (exits.suggests(node)) {
            Map<String, List<RawJson>> caps = new HashMap<>();
            caps.put(ExitNodeSteering.SUGGEST_EXIT_NODE, null);
            wire.capMap(caps);
        }
        return wire.build();
    }

    /**
     * What peers route to {@code node} beyond its own addresses: the routes it serves and the addresses of the
     * services it hosts (part of its shared peer form, so {@link PeerForms} compares them).
     */
    static List<IpPrefix> routedTo(Node node, MapInputs in) {
        List<IpPrefix> served = in.routes().servedBy(node);
        List<IpPrefix> services = in.context().services().prefixes(node);
        if (services.isEmpty()) {
            return served;
        }
        List<IpPrefix> all = new ArrayList<>(served);
        all.addAll(services);
        return all;
    }

    private static int homeDerp(Hostinfo hostinfo) {
        return hostinfo == null ? 0 : hostinfo.homeRegion();
    }

    private static List<IpAddressPort> endpoints(List<String> texts) {
        List<IpAddressPort> endpoints = new ArrayList<>(texts.size());
        for (String text : texts) {
            endpoints.add(IpAddressPort.parse(text));
        }
        return endpoints;
    }
}
