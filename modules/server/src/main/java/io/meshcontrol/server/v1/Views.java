package io.meshcontrol.server.v1;

import io.meshcontrol.api.ApiKeyView;
import io.meshcontrol.api.FilterRuleView;
import io.meshcontrol.api.NodeView;
import io.meshcontrol.core.location.GeoDatabase;
import io.meshcontrol.api.PreAuthKeyView;
import io.meshcontrol.api.RoutesView;
import io.meshcontrol.api.SettingsView;
import io.meshcontrol.api.UserView;
import io.meshcontrol.core.model.ApiKey;
import io.meshcontrol.core.model.Node;
import io.meshcontrol.core.wire.HostinfoFields;
import io.meshcontrol.core.wire.DERPRegion;
import io.meshcontrol.core.netmap.context.MapContext;
import io.meshcontrol.core.model.PreAuthKey;
import io.meshcontrol.core.model.TailnetSettings;
import io.meshcontrol.core.model.User;
import io.meshcontrol.core.routes.RoutePrefixes;
import io.meshcontrol.core.routes.RouteTable;
import io.meshcontrol.core.net.IpPrefix;
import io.meshcontrol.core.policy.Ports;
import io.meshcontrol.core.policy.Protocols;
import io.meshcontrol.core.wire.CapGrant;
import io.meshcontrol.core.wire.FilterRule;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/** Domain records to their v1 views. */
final class Views {

    private Views() {
    }

    static UserView user(User user) {
        return new UserView(Long.toString(user.id()), user.name(), user.displayName(), user.email(),
                user.role().wireName(), user.createdAt(), user.approved());
    }

    static ApiKeyView apiKey(ApiKey key, User owner, Instant now) {
        return new ApiKeyView(key.id(), key.prefix(), key.description(), owner == null ? null : owner.name(),
                key.scopes(), key.createdAt(), key.expiresAt(), key.isExpired(now), key.lastUsedAt());
    }

    static PreAuthKeyView preAuthKey(PreAuthKey key, User user, Instant now) {
        String reason = key.invalidReason(now);
        return new PreAuthKeyView(Long.toString(key.id()), key.prefix(), user == null ? null : user.name(), key.tags(),
                key.reusable(), key.ephemeral(), key.preauthorized(), key.description(), key.createdAt(), key.expiresAt(),
                reason == null, reason, key.useCount(), key.lastUsedAt());
    }

    /**
     * @param online whether the node holds a map stream now; an online node is seen {@code now}, so its stored
     *     last-seen time (the end of its previous stream) is not shown while it is connected
     */
    static NodeView node(Node node, User owner, boolean online, RouteTable routes, Instant now) {
        return node(node, owner, online, routes, now, GeoDatabase.NONE, null, HostinfoFieldsCache.parse(node.hostinfo()));
    }

    /**
     * @param locations places the node by its endpoints
     * @param context the latest client release and the relay map, for the client's facts; null without them
     * @param info the known fields of the node's stored Hostinfo
     */
    static NodeView node(Node node, User owner, boolean online, RouteTable routes, Instant now,
            GeoDatabase locations, MapContext context, HostinfoFields info) {
        return new NodeView(Long.toString(node.id()), node.stableId(), node.givenName(), node.hostname(),
                owner == null ? null : owner.name(), node.tags(), node.ipv4(), node.ipv6(), node.machineKey().toText(),
                node.nodeKey().toText(), node.authorized(), node.ephemeral(), node.isKeyExpired(now),
                node.registerMethod().wireName(), node.createdAt(), online, online ? now : node.lastSeen(),
                node.keyExpiry(),
                routes(node, routes, info), node.suspended(), locations.locate(node.endpoints())
                        .map(l -> new NodeView.LocationView(l.country(), l.city(), l.address())).orElse(null),
                client(node, info, online, context));
    }

    /**
     * What the client reports, and the two things the server can tell from it: whether a newer release is known, and
     * whether the client said UDP does not work where it is (then it can only be reached through a relay). Which
     * path two clients use between them is not reported to the server, so anything else is {@code unknown}.
     */
    static NodeView.ClientView client(Node node, HostinfoFields fields, boolean online, MapContext context) {
        String version = fields.ipnVersion() == null || fields.ipnVersion().isEmpty() ? null
                : fields.ipnVersion().split("-", 2)[0];
        String latest = context == null || context.latestClientVersion() == null
                || context.latestClientVersion().isEmpty() ? null : context.latestClientVersion();
        // The map's rule, so that the list, the overview and the client's own notice agree.
        Boolean update = version == null || latest == null ? null
                : !context.clientVersionFor(fields.ipnVersion()).runningLatest();
        int region = homeRegion(fields);
        String regionName = region == 0 || context == null || context.derpMap() == null
                || context.derpMap().regions() == null ? null
                : java.util.Optional.ofNullable(context.derpMap().regions().get(region)).map(DERPRegion::regionName)
                        .orElse(null);
        boolean noUdp = fields.netInfo() != null && Boolean.FALSE.equals(fields.netInfo().workingUdp());
        return new NodeView.ClientView(blankToNull(fields.os()), blankToNull(fields.osVersion()), version, latest,
                update, node.endpoints(), region, regionName, online && noUdp ? "relayed" : "unknown");
    }

    private static String blankToNull(String text) {
        return text == null || text.isEmpty() ? null : text;
    }

    static RoutesView routes(Node node, RouteTable routes) {
        return routes(node, routes, HostinfoFieldsCache.parse(node.hostinfo()));
    }

    /** The client's home relay region ({@code NetInfo.PreferredDERP}); 0 when it reported none. */
    private static int homeRegion(HostinfoFields fields) {
        return fields.netInfo() == null ? 0 : fields.netInfo().preferredDerp();
    }

    private static RoutesView routes(Node node, RouteTable routes, HostinfoFields info) {
        return new RoutesView(texts(node.approvedRoutes()), texts(RoutePrefixes.sorted(node.advertisedRoutes())),
                texts(routes.servedBy(node)), node.isGlobalExitNode(),
                node.isGlobalExitNode() ? node.globalExitPriority() : 0, homeRegion(info));
    }

    private static List<String> texts(List<IpPrefix> prefixes) {
        return prefixes.stream().map(IpPrefix::toString).toList();
    }

    /** Protocols a filter rule lets in when it names none: the client fills in TCP, UDP and ICMP (v4 and v6). */
    private static final List<String> DEFAULT_PROTOCOLS = Stream.of(Protocols.TCP, Protocols.UDP, Protocols.ICMP,
            Protocols.ICMPV6).map(Protocols::name).toList();

    /** A packet-filter rule as a person reads it: ports as {@code 22}, {@code 80-90} or {@code *}, protocols named. */
    static FilterRuleView filterRule(FilterRule rule) {
        List<FilterRuleView.Destination> destinations = new ArrayList<>();
        rule.dstPorts().forEach(dst -> destinations.add(
                new FilterRuleView.Destination(dst.ip(), Ports.text(List.of(dst.ports())))));
        Set<String> capabilities = new LinkedHashSet<>();
        for (CapGrant grant : rule.capGrant()) {
            grant.dsts().forEach(dst -> destinations.add(new FilterRuleView.Destination(dst.toString(), "")));
            capabilities.addAll(grant.caps());
            capabilities.addAll(grant.capMap().keySet());
        }
        List<String> protocols = !rule.capGrant().isEmpty() ? List.of()
                : rule.ipProto().isEmpty() ? DEFAULT_PROTOCOLS : rule.ipProto().stream().map(Protocols::name).toList();
        return new FilterRuleView(rule.srcIps(), destinations, protocols, List.copyOf(capabilities));
    }

    static SettingsView settings(TailnetSettings settings) {
        return new SettingsView(settings.devicesApprovalOn(), settings.usersApprovalOn(), settings.devicesKeyDurationDays());
    }
}
