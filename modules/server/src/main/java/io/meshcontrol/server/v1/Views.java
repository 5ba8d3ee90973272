package io.meshcontrol.server.v1;

import io.meshcontrol.api.ApiKeyView;
import io.meshcontrol.api.NodeView;
import io.meshcontrol.api.PreAuthKeyView;
import io.meshcontrol.api.RoutesView;
import io.meshcontrol.api.SettingsView;
import io.meshcontrol.api.UserView;
import io.meshcontrol.core.model.ApiKey;
import io.meshcontrol.core.model.Node;
import io.meshcontrol.core.model.PreAuthKey;
import io.meshcontrol.core.model.TailnetSettings;
import io.meshcontrol.core.model.User;
import io.meshcontrol.core.routes.RoutePrefixes;
import io.meshcontrol.core.routes.RouteTable;
import io.meshcontrol.core.net.IpPrefix;
import java.time.Instant;
import java.util.List;

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
        return new NodeView(Long.toString(node.id()), node.stableId(), node.givenName(), node.hostname(),
                owner == null ? null : owner.name(), node.tags(), node.ipv4(), node.ipv6(), node.machineKey().toText(),
                node.nodeKey().toText(), node.authorized(), node.ephemeral(), node.isKeyExpired(now),
                node.registerMethod().wireName(), node.createdAt(), online, online ? now : node.lastSeen(),
                node.keyExpiry(),
                routes(node, routes), node.suspended());
    }

    static RoutesView routes(Node node, RouteTable routes) {
        return new RoutesView(texts(node.approvedRoutes()), texts(RoutePrefixes.sorted(node.advertisedRoutes())),
                texts(routes.servedBy(node)), node.isGlobalExitNode(),
                node.isGlobalExitNode() ? node.globalExitPriority() : 0);
    }

    private static List<String> texts(List<IpPrefix> prefixes) {
        return prefixes.stream().map(IpPrefix::toString).toList();
    }

    static SettingsView settings(TailnetSettings settings) {
        return new SettingsView(settings.devicesApprovalOn(), settings.usersApprovalOn(), settings.devicesKeyDurationDays());
    }
}
