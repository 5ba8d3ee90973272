package io.meshcontrol.core.policy;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A parsed policy file. The text the user saved is kept verbatim; the parts the server uses so far are
 * {@code groups}, {@code tagOwners}, {@code hosts} and {@code acls}.
 *
 * @param text as saved, comments and all
 * @param groups group name ({@code group:x}) to member logins
 * @param tagOwners tag to its owners: logins, groups, other tags, or {@code autogroup:admin}/{@code member}
 * @param hosts names usable in rules, to an IP address or prefix
 * @param acls access rules, or null when the policy has no {@code acls} section (then everything is allowed, as
 *     for a network that never saved a policy); an empty list allows nothing
 */
public record Policy(String text, Map<String, List<String>> groups, Map<String, List<String>> tagOwners,
        Map<String, String> hosts, List<AclRule> acls) {

    /** The policy in force before anyone saves one: no tags are defined, everything is allowed. */
    public static final Policy EMPTY = new Policy("{}\n", Map.of(), Map.of(), Map.of(), null);

    /** A tag name: {@code tag:} and letters, digits and dashes, starting with a letter. */
    public static final Pattern TAG = Pattern.compile("tag:[A-Za-z][A-Za-z0-9-]*");
    private static final Pattern GROUP = Pattern.compile("group:[A-Za-z0-9][A-Za-z0-9._-]*");
    private static final JsonMapper JSON = JsonMapper.builder().build();

    public Policy {
        groups = Map.copyOf(groups);
        tagOwners = Map.copyOf(tagOwners);
        hosts = Map.copyOf(hosts);
        acls = acls == null ? null : List.copyOf(acls);
    }

    /** Parses and validates; a bad policy is refused as a whole. */
    public static Policy parse(String text) {
        JsonNode root;
        try {
            root = JSON.readTree(HuJson.standardize(text));
        } catch (JacksonException e) {
            throw new PolicyException("parsing policy: " + e.getOriginalMessage());
        }
        if (root == null || !root.isObject()) {
            throw new PolicyException("parsing policy: the policy must be a JSON object");
        }
        Map<String, List<String>> groups = stringLists(root.path("groups"), "groups");
        for (String group : groups.keySet()) {
            if (!GROUP.matcher(group).matches()) {
                throw new PolicyException("groups[\"" + group + "\"]: group names must start with group:");
            }
        }
        Map<String, List<String>> tagOwners = stringLists(root.path("tagOwners"), "tagOwners");
        for (Map.Entry<String, List<String>> entry : tagOwners.entrySet()) {
            if (!TAG.matcher(entry.getKey()).matches()) {
                throw new PolicyException("tagOwners[\"" + entry.getKey() + "\"]: tag names must start with tag:");
            }
            for (String owner : entry.getValue()) {
                if (owner.startsWith("group:") && !groups.containsKey(owner)) {
                    throw new PolicyException("tagOwners[\"" + entry.getKey() + "\"]: group not found: \"" + owner + "\"");
                }
                if (owner.startsWith("tag:") && !tagOwners.containsKey(owner)) {
                    throw new PolicyException("tagOwners[\"" + entry.getKey() + "\"]: tag not found: \"" + owner + "\"");
                }
            }
        }
        Map<String, String> hosts = hosts(root.path("hosts"));
        List<AclRule> acls = AclParser.parse(root.path("acls"), groups, tagOwners, hosts);
        return new Policy(text, groups, tagOwners, hosts, acls);
    }

    private static Map<String, String> hosts(JsonNode node) {
        if (node.isMissingNode() || node.isNull()) {
            return Map.of();
        }
        if (!node.isObject()) {
            throw new PolicyException("parsing policy: \"hosts\" must be an object");
        }
        Map<String, String> hosts = new java.util.LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> entry : node.properties()) {
            if (!entry.getValue().isString() || !IpLiterals.isAddressOrPrefix(entry.getValue().stringValue())) {
                throw new PolicyException("hosts[\"" + entry.getKey() + "\"]: must be an IP address or prefix");
            }
            hosts.put(entry.getKey(), entry.getValue().stringValue());
        }
        return hosts;
    }

    public boolean definesTag(String tag) {
        return tagOwners.containsKey(tag);
    }

    /**
     * Whether a user may put {@code tag} on a machine: listed directly (by any of its {@code logins}, such as
     * name and e-mail), through a group, or through {@code autogroup:admin}/{@code autogroup:member}.
     */
    public boolean userOwns(Set<String> logins, boolean admin, String tag) {
        for (String owner : tagOwners.getOrDefault(tag, List.of())) {
            if (logins.contains(owner) || owner.equals("autogroup:member")
                    || (admin && owner.equals("autogroup:admin"))
                    || (owner.startsWith("group:")
                        && groups.getOrDefault(owner, List.of()).stream().anyMatch(logins::contains))) {
                return true;
            }
        }
        return false;
    }

    /** Whether holders of {@code held} tags may use {@code tag}: it is one of them, or one of them owns it (transitively). */
    public boolean tagsOwn(Set<String> held, String tag) {
        Set<String> seen = new HashSet<>();
        Deque<String> pending = new ArrayDeque<>(List.of(tag));
        while (!pending.isEmpty()) {
            String current = pending.pop();
            if (held.contains(current)) {
                return true;
            }
            if (seen.add(current)) {
                tagOwners.getOrDefault(current, List.of()).stream().filter(o -> o.startsWith("tag:")).forEach(pending::push);
            }
        }
        return false;
    }

    private static Map<String, List<String>> stringLists(JsonNode node, String section) {
        if (node.isMissingNode() || node.isNull()) {
            return Map.of();
        }
        if (!node.isObject()) {
            throw new PolicyException("parsing policy: \"" + section + "\" must be an object");
        }
        Map<String, List<String>> result = new java.util.LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> entry : node.properties()) {
            if (!entry.getValue().isArray()) {
                throw new PolicyException(section + "[\"" + entry.getKey() + "\"]: must be a list of strings");
            }
            List<String> values = new java.util.ArrayList<>();
            for (JsonNode value : entry.getValue()) {
                if (!value.isString()) {
                    throw new PolicyException(section + "[\"" + entry.getKey() + "\"]: must be a list of strings");
                }
                values.add(value.stringValue());
            }
            result.put(entry.getKey(), List.copyOf(values));
        }
        return result;
    }
}
