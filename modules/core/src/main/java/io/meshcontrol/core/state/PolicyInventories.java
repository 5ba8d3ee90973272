package io.meshcontrol.core.state;

import io.meshcontrol.core.apps.AppConnectors;
import io.meshcontrol.core.location.GeoDatabase;
import io.meshcontrol.core.location.Location;
import io.meshcontrol.core.policy.MachineFacts;
import io.meshcontrol.core.wire.WireJson;
import java.util.Optional;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import io.meshcontrol.core.model.Node;
import io.meshcontrol.core.model.User;
import io.meshcontrol.core.net.IpPrefix;
import io.meshcontrol.core.policy.PolicyInventory;
import io.meshcontrol.core.policy.PolicyNode;
import io.meshcontrol.core.policy.PolicyUser;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;

/** What the policy sees of a snapshot: every user, and the admitted (approved, not suspended) nodes with their addresses and routes. */
public final class PolicyInventories {

    private PolicyInventories() {
    }

    public static PolicyInventory of(NetworkSnapshot snapshot) {
        return of(snapshot, GeoDatabase.NONE);
    }

    /** The inventory with each node placed by {@code locations} (for {@code ip:country} posture conditions). */
    public static PolicyInventory of(NetworkSnapshot snapshot, GeoDatabase locations) {
        List<PolicyUser> users = of(snapshot.users().values());
        List<PolicyNode> nodes = new ArrayList<>(snapshot.nodes().size());
        for (Node node : snapshot.nodes().values()) {
            if (node.admitted()) {
                nodes.add(node(node, locations));
            }
        }
        nodes.sort(Comparator.comparingLong(PolicyNode::id));
        return new PolicyInventory(users, nodes);
    }

    /** The users as the policy sees them, in id order. */
    public static List<PolicyUser> of(Collection<User> all) {
        List<PolicyUser> users = new ArrayList<>(all.size());
        for (User user : all) {
            users.add(user(user));
        }
        users.sort(Comparator.comparingLong(PolicyUser::id));
        return users;
    }

    /** A user as the policy sees it. */
    public static PolicyUser user(User user) {
        return new PolicyUser(user.id(), user.name(), user.email(), user.role());
    }

    /** A node as the policy sees it, without a location. */
    public static PolicyNode node(Node node) {
        return node(node, GeoDatabase.NONE);
    }

    /**
     * A node as the policy sees it, placed by {@code locations}.
     *
     * @param locations null for a policy without postures: the node's facts are not looked up at all (no Hostinfo
     *     parsed, no database lookup), since nothing would read them
     */
    public static PolicyNode node(Node node, GeoDatabase locations) {
        if (locations == null) {
            return new PolicyNode(node.id(), node.givenName(), node.stableId(), node.userId(), node.tags(),
                    node.ipv4(), node.ipv6(), approvedRoutes(node), AppConnectors.runsConnector(node));
        }
        return new PolicyNode(node.id(), node.givenName(), node.stableId(), node.userId(), node.tags(), node.ipv4(),
                node.ipv6(), approvedRoutes(node), AppConnectors.runsConnector(node), facts(node, locations));
    }

    /** What posture conditions see of a node: its Hostinfo's OS and version, and its location. */
    public static MachineFacts facts(Node node, GeoDatabase locations) {
        String os = null;
        String osVersion = null;
        String version = null;
        if (node.hostinfo() != null && !node.hostinfo().isEmpty()) {
            try {
                JsonNode hostinfo = WireJson.mapper().readTree(node.hostinfo());
                os = text(hostinfo, "OS");
                osVersion = text(hostinfo, "OSVersion");
                version = text(hostinfo, "IPNVersion");
            } catch (JacksonException e) {
                // a Hostinfo we cannot read reports nothing
            }
        }
        if (version != null && version.indexOf('-') > 0) {
            version = version.substring(0, version.indexOf('-'));
        }
        Optional<Location> location = locations.locate(node.endpoints());
        return new MachineFacts(os, osVersion, version, location.map(Location::country).orElse(null),
                location.map(Location::city).orElse(null));
    }

    private static String text(JsonNode node, String field) {
        JsonNode value = node == null ? null : node.get(field);
        return value == null || !value.isString() || value.asString().isEmpty() ? null : value.asString();
    }

    /**
     * The routes the node may serve (subnets, and {@code 0.0.0.0/0}/{@code ::/0} for an exit node): advertised and
     * approved. Every router of a subnet gets its rules, primary or not, as the vendor does.
     */
    public static List<String> approvedRoutes(Node node) {
        return node.activeRoutes().stream().map(IpPrefix::toString).toList();
    }
}
