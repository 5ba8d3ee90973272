package io.meshcontrol.core.routes;

import io.meshcontrol.core.model.Node;
import io.meshcontrol.core.model.User;
import io.meshcontrol.core.policy.HuJson;
import io.meshcontrol.core.policy.Policy;
import io.meshcontrol.core.policy.PolicyException;
import io.meshcontrol.core.net.IpPrefix;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The policy's {@code autoApprovers}, read from the policy text:
 * <pre>
 * "autoApprovers": {
 *   "routes":   {"10.0.0.0/8": ["tag:router", "alice@example.com", "group:netops"]},
 *   "exitNode": ["tag:exit"]
 * }
 * </pre>
 * An approver is a tag (nodes carrying it), a group or a user (that user's untagged nodes; a user is named by
 * e-mail, {@code name@} or name). A route is approved when it lies inside a listed prefix; exit routes are
 * approved only through {@code exitNode}, never through a {@code /0} entry of {@code routes}.
 */
public final class PolicyAutoApprovers implements AutoApprovers {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final Map<IpPrefix, List<String>> routes;
    private final List<String> exitNode;
    private final Map<String, List<String>> groups;

    private PolicyAutoApprovers(Map<IpPrefix, List<String>> routes, List<String> exitNode,
            Map<String, List<String>> groups) {
        this.routes = routes;
        this.exitNode = exitNode;
        this.groups = groups;
    }

    /**
     * Reads and checks the section of an already parsed policy.
     *
     * @throws PolicyException naming the bad entry: a prefix that is none, a non-string approver, an undefined
     *     group or tag
     */
    public static PolicyAutoApprovers from(Policy policy) {
        JsonNode section;
        try {
            section = JSON.readTree(HuJson.standardize(policy.text())).path("autoApprovers");
        } catch (JacksonException e) {
            throw new PolicyException("parsing policy: " + e.getOriginalMessage());
        }
        if (section.isMissingNode() || section.isNull()) {
            return new PolicyAutoApprovers(Map.of(), List.of(), policy.groups());
        }
        if (!section.isObject()) {
            throw new PolicyException("parsing policy: \"autoApprovers\" must be an object");
        }
        Map<IpPrefix, List<String>> routes = new LinkedHashMap<>();
        JsonNode routesNode = section.path("routes");
        if (!routesNode.isMissingNode() && !routesNode.isNull()) {
            if (!routesNode.isObject()) {
                throw new PolicyException("parsing policy: \"autoApprovers.routes\" must be an object");
            }
            for (Map.Entry<String, JsonNode> entry : routesNode.properties()) {
                String where = "autoApprovers.routes[\"" + entry.getKey() + "\"]";
                IpPrefix prefix;
                try {
                    prefix = IpPrefix.parse(entry.getKey());
                } catch (IllegalArgumentException e) {
                    throw new PolicyException(where + ": not a CIDR prefix");
                }
                routes.merge(prefix, approvers(entry.getValue(), where, policy), PolicyAutoApprovers::concat);
            }
        }
        List<String> exitNode = section.has("exitNode") && !section.get("exitNode").isNull()
                ? approvers(section.get("exitNode"), "autoApprovers.exitNode", policy) : List.of();
        return new PolicyAutoApprovers(Map.copyOf(routes), exitNode, policy.groups());
    }

    @Override
    public boolean approvesRoute(Node node, User owner, IpPrefix route) {
        for (Map.Entry<IpPrefix, List<String>> entry : routes.entrySet()) {
            if (entry.getKey().contains(route) && matches(entry.getValue(), node, owner)) {
                return true;
            }
        }
        return false;
    }

    @Override
    public boolean approvesExitNode(Node node, User owner) {
        return matches(exitNode, node, owner);
    }

    /** Whether any approver covers the node: one of its tags, or (for an untagged node) its owner or their group. */
    private boolean matches(List<String> approvers, Node node, User owner) {
        for (String approver : approvers) {
            if (approver.startsWith("tag:")) {
                if (node.tags().contains(approver)) {
                    return true;
                }
            } else if (!node.isTagged() && owner != null) {
                List<String> logins = approver.startsWith("group:") ? groups.getOrDefault(approver, List.of())
                        : List.of(approver);
                if (logins.stream().anyMatch(login -> names(owner, login))) {
                    return true;
                }
            }
        }
        return false;
    }

    private static boolean names(User user, String login) {
        return login.equals(user.name()) || login.equals(user.name() + "@")
                || (!user.email().isEmpty() && login.equals(user.email()));
    }

    private static List<String> approvers(JsonNode list, String where, Policy policy) {
        if (!list.isArray()) {
            throw new PolicyException(where + ": must be a list of strings");
        }
        List<String> approvers = new ArrayList<>();
        for (JsonNode value : list) {
            if (!value.isString()) {
                throw new PolicyException(where + ": must be a list of strings");
            }
            String approver = value.stringValue();
            if (approver.startsWith("group:") && !policy.groups().containsKey(approver)) {
                throw new PolicyException(where + ": group not found: \"" + approver + "\"");
            }
            if (approver.startsWith("tag:") && !policy.definesTag(approver)) {
                throw new PolicyException(where + ": tag not found: \"" + approver + "\"");
            }
            approvers.add(approver);
        }
        return List.copyOf(approvers);
    }

    private static List<String> concat(List<String> a, List<String> b) {
        List<String> both = new ArrayList<>(a);
        both.addAll(b);
        return List.copyOf(both);
    }
}
