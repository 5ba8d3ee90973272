package io.meshcontrol.core.policy;

import io.meshcontrol.core.MeshException;
import io.meshcontrol.core.model.Role;
import io.meshcontrol.core.net.IpPrefix;
import io.meshcontrol.core.wire.WireJson;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Offline evaluation of a policy against a described network ({@code svc policy simulate}): the same compiler the
 * server runs, fed from a file instead of the database.
 *
 * <p>The network file: {@code {"users": [{"name", "email", "role"}], "nodes": [{"name", "user" (e-mail or name),
 * "tags", "ipv4", "ipv6", "advertisedRoutes", "approvedRoutes", and for posture conditions "country", "city", "os",
 * "osVersion", "tsVersion"}]}}; a tagged node has tags and no user. As on the
 * server, a node serves the routes it advertises that are approved, by an administrator ({@code approvedRoutes}) or
 * by the policy's auto-approvers ({@link AutoApproval}); a node without {@code advertisedRoutes} advertises its
 * approved routes.
 */
public final class PolicySimulation {

    private PolicySimulation() {
    }

    /**
     * Reads the network file, with the routes each node serves under {@code policy}. Users and nodes get ids in file
     * order.
     *
     * @throws MeshException naming the first problem
     */
    public static PolicyInventory readInventory(String json, Policy policy) {
        JsonNode root;
        try {
            root = WireJson.mapper().readTree(json);
        } catch (JacksonException e) {
            throw MeshException.invalid("nodes file: " + e.getOriginalMessage());
        }
        if (root == null || !root.isObject()) {
            throw MeshException.invalid("nodes file: must be a JSON object with \"users\" and \"nodes\"");
        }
        List<PolicyUser> users = new ArrayList<>();
        for (JsonNode user : root.path("users")) {
            String name = text(user, "name", "users");
            String role = user.path("role").asString("member");
            users.add(new PolicyUser(users.size() + 1, name, user.path("email").asString(""), Role.fromWireName(role)));
        }
        List<PolicyNode> nodes = new ArrayList<>();
        TreeSet<String> names = new TreeSet<>();
        for (JsonNode node : root.path("nodes")) {
            String name = text(node, "name", "nodes");
            if (!names.add(name)) {
                throw MeshException.invalid("nodes file: node \"" + name + "\" appears twice");
            }
            List<String> tags = strings(node.path("tags"));
            PolicyUser user = null;
            String login = node.path("user").asString("");
            if (!login.isEmpty()) {
                user = users.stream().filter(u -> login.equals(u.email()) || login.equals(u.name())
                        || login.equals(u.name() + "@")).findFirst()
                        .orElseThrow(() -> MeshException.invalid("nodes file: node \"" + name + "\": unknown user \""
                                + login + "\""));
            } else if (tags.isEmpty()) {
                throw MeshException.invalid("nodes file: node \"" + name + "\" needs a user or tags");
            }
            String ipv4 = text(node, "ipv4", "nodes");
            String ipv6 = node.path("ipv6").asString("");
            List<String> approved = strings(node.path("approvedRoutes"));
            List<String> advertised = node.has("advertisedRoutes") ? strings(node.path("advertisedRoutes")) : approved;
            check(name, "ipv4", ipv4, false);
            if (!ipv6.isEmpty()) {
                check(name, "ipv6", ipv6, false);
            }
            approved.forEach(route -> check(name, "approvedRoutes", route, true));
            advertised.forEach(route -> check(name, "advertisedRoutes", route, true));
            PolicyUser owner = tags.isEmpty() ? user : null;
            Long ownerId = owner == null ? null : owner.id();
            PolicyNode before = new PolicyNode(nodes.size() + 1, name, name, ownerId, tags, ipv4, ipv6,
                    served(advertised, prefixes(approved)));
            // What the server does when the node advertises: the auto-approvers add to the approvals.
            List<IpPrefix> approvedNow = AutoApproval.of(policy, before, owner)
                    .approve(prefixes(advertised), prefixes(approved));
            nodes.add(new PolicyNode(before.id(), name, name, ownerId, tags, ipv4, ipv6,
                    served(advertised, approvedNow), false, facts(node)));
        }
        return new PolicyInventory(users, nodes);
    }

    /** What posture conditions see of a node in the file: where it is and its client, each optional. */
    private static MachineFacts facts(JsonNode node) {
        return new MachineFacts(optional(node, "os"), optional(node, "osVersion"), optional(node, "tsVersion"),
                optional(node, "country") == null ? null : optional(node, "country").toUpperCase(java.util.Locale.ROOT),
                optional(node, "city"));
    }

    private static String optional(JsonNode node, String field) {
        String value = node.path(field).asString("");
        return value.isEmpty() ? null : value;
    }

    /**
     * One object per node name (in file order, or only {@code only}): {@code packetFilter}, {@code sshPolicy} (null
     * when no SSH rule applies; the server then sends an empty rule list), {@code peers} (sorted names) and
     * {@code capMap}.
     */
    public static ObjectNode simulate(CompiledPolicy compiled, PolicyInventory inventory, String only) {
        Map<Long, String> names = new LinkedHashMap<>();
        inventory.nodes().forEach(node -> names.put(node.id(), node.name()));
        ObjectNode out = WireJson.mapper().createObjectNode();
        for (PolicyNode node : inventory.nodes()) {
            if (only != null && !only.equals(node.name())) {
                continue;
            }
            ObjectNode entry = out.putObject(node.name());
            entry.set("packetFilter", WireJson.mapper().valueToTree(compiled.packetFilter(node.id())));
            var ssh = compiled.sshPolicy(node.id());
            entry.set("sshPolicy", ssh.rules().isEmpty() ? WireJson.mapper().nullNode()
                    : WireJson.mapper().valueToTree(ssh));
            var peers = entry.putArray("peers");
            compiled.peers(node.id()).stream().map(names::get).sorted().forEach(peers::add);
            entry.set("capMap", WireJson.mapper().valueToTree(compiled.capMap(node.id())));
        }
        if (only != null && out.isEmpty()) {
            throw MeshException.notFound("no node named \"" + only + "\" in the nodes file");
        }
        return out;
    }

    /** The advertised routes that are approved, in the order advertised (the server's {@code activeRoutes}). */
    private static List<String> served(List<String> advertised, Collection<IpPrefix> approved) {
        Set<IpPrefix> approvedSet = new HashSet<>(approved);
        return advertised.stream().filter(route -> approvedSet.contains(IpPrefix.parse(route))).toList();
    }

    private static List<IpPrefix> prefixes(List<String> routes) {
        return routes.stream().map(IpPrefix::parse).toList();
    }

    private static void check(String node, String field, String value, boolean prefix) {
        try {
            if (prefix) {
                IpPrefix.parse(value);
            } else {
                io.meshcontrol.core.net.IpAddress.parse(value);
            }
        } catch (IllegalArgumentException e) {
            throw MeshException.invalid("nodes file: node \"" + node + "\": " + field + " \"" + value + "\" is not an IP "
                    + (prefix ? "prefix" : "address"));
        }
    }

    private static String text(JsonNode node, String field, String section) {
        JsonNode value = node.path(field);
        if (!value.isString() || value.stringValue().isEmpty()) {
            throw MeshException.invalid("nodes file: every entry of \"" + section + "\" needs \"" + field + "\"");
        }
        return value.stringValue();
    }

    private static List<String> strings(JsonNode node) {
        List<String> values = new ArrayList<>();
        node.forEach(value -> values.add(value.asString()));
        return values;
    }
}
