package io.meshcontrol.core.policy;

import io.meshcontrol.core.net.IpBlock;
import io.meshcontrol.core.net.IpPrefix;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;

/**
 * Reads a policy's text into a {@link Policy} and checks everything that can be checked without the network's
 * users and machines: shapes, names, references between sections. Errors use the vendor's words where the vendor
 * has words for them, so people can search for them.
 */
final class PolicyParser {

    private static final Set<String> SECTIONS = Set.of("acls", "grants", "ssh", "groups", "hosts", "tagOwners",
            "autoApprovers", "nodeAttrs", "tests", "sshTests", "postures", "defaultSrcPosture", "ipsets", "derpMap",
            "disableIPv4", "randomizeClientPort", "OneCGNATRoute");
    private static final Pattern GROUP = Pattern.compile("group:[A-Za-z0-9][A-Za-z0-9._-]*");

    private final JsonNode root;
    private final Map<String, List<String>> groups;
    private final Map<String, List<String>> tagOwners;
    private final Map<String, String> hosts;

    private PolicyParser(JsonNode root) {
        this.root = root;
        this.groups = groups(root.path("groups"));
        this.hosts = hosts(root.path("hosts"));
        this.tagOwners = tagOwners(root.path("tagOwners"));
    }

    static Policy parse(String text) {
        JsonNode root = HuJson.read(text);
        if (root == null || !root.isObject()) {
            throw new PolicyException("parsing policy: the policy must be a JSON object");
        }
        for (String key : root.propertyNames()) {
            if (!SECTIONS.contains(key)) {
                throw new PolicyException("unknown field \"" + key + "\"", key);
            }
        }
        return new PolicyParser(root).policy(text);
    }

    private Policy policy(String text) {
        References refs = new References(groups, tagOwners, hosts);
        AutoApprovers approvers = autoApprovers(root.path("autoApprovers"), refs);
        Map<String, DevicePosture> postures = PostureParser.postures(root.path("postures"));
        List<String> defaultSrcPosture = PostureParser.references(root.path("defaultSrcPosture"), "defaultSrcPosture",
                postures);
        RuleParser rules = new RuleParser(refs, postures);
        List<AclRule> acls = present(root.path("acls")) ? rules.acls(list(root.path("acls"), "acls")) : null;
        List<Grant> grants = present(root.path("grants")) ? rules.grants(list(root.path("grants"), "grants")) : null;
        List<SshRule> ssh = new SshParser(refs, postures).rules(list(root.path("ssh"), "ssh"));
        List<NodeAttr> nodeAttrs = new NodeAttrParser(refs).attrs(list(root.path("nodeAttrs"), "nodeAttrs"));
        List<PolicyTest> tests = TestParser.tests(list(root.path("tests"), "tests"));
        List<SshTest> sshTests = TestParser.sshTests(list(root.path("sshTests"), "sshTests"), refs);
        boolean randomizeClientPort = root.path("randomizeClientPort").asBoolean(false);
        return new Policy(text, groups, tagOwners, hosts, approvers, acls, grants, ssh, nodeAttrs, tests, sshTests,
                randomizeClientPort, postures, defaultSrcPosture);
    }

    /**
     * Group members are users. The vendor refuses a group inside a group (no nesting at all) and names the last such
     * group of the file with its first group member.
     */
    private static Map<String, List<String>> groups(JsonNode node) {
        Map<String, List<String>> groups = stringLists(node, "groups");
        String recursive = null;
        for (Map.Entry<String, List<String>> entry : groups.entrySet()) {
            if (!entry.getKey().startsWith("group:")) {
                throw new PolicyException("groups[\"" + entry.getKey() + "\"]: group names must start with group:");
            }
            if (!GROUP.matcher(entry.getKey()).matches()) {
                throw new PolicyException("groups[\"" + entry.getKey() + "\"]: invalid group name");
            }
            for (String member : entry.getValue()) {
                if (member.startsWith("group:")) {
                    recursive = "groups[\"" + entry.getKey() + "\"]: \"" + member + "\": group members cannot be recursive";
                    break;
                }
                if (member.startsWith("tag:") || member.startsWith(AutoGroup.PREFIX) || member.isEmpty()) {
                    throw new PolicyException("groups[\"" + entry.getKey() + "\"]: \"" + member
                            + "\": group members must be users");
                }
            }
        }
        if (recursive != null) {
            throw new PolicyException(recursive);
        }
        return groups;
    }

    private Map<String, List<String>> tagOwners(JsonNode node) {
        Map<String, List<String>> owners = stringLists(node, "tagOwners");
        for (Map.Entry<String, List<String>> entry : owners.entrySet()) {
            String tag = entry.getKey();
            checkTagName(tag, "tagOwners[\"" + tag + "\"]: ");
            for (String owner : entry.getValue()) {
                String where = "tagOwners[\"" + tag + "\"]: ";
                if (owner.startsWith("group:") && !groups.containsKey(owner)) {
                    throw new PolicyException(where + "group not found: \"" + owner + "\"", owner);
                }
                if (owner.startsWith("tag:") && !owners.containsKey(owner)) {
                    throw new PolicyException(where + "tag not found: \"" + owner + "\"", owner);
                }
                if (owner.startsWith(AutoGroup.PREFIX) && AutoGroup.parse(owner).isEmpty()) {
                    throw new PolicyException(where + "autogroup \"" + owner + "\" is not valid");
                }
                if (!owner.contains("@") && !owner.startsWith("group:") && !owner.startsWith("tag:")
                        && !owner.startsWith(AutoGroup.PREFIX)) {
                    // As the vendor: a bare name is no user. Say how to write one rather than only refusing it.
                    throw new PolicyException(where + "\"" + owner + "\": owners are users, groups, tags or autogroups;"
                            + " users are written with an @: \"" + owner + "@\" (a user without an e-mail address)"
                            + " or their e-mail address");
                }
            }
        }
        return owners;
    }

    /** {@code tag:} and a letter, then letters, digits and dashes (ASCII). */
    static void checkTagName(String tag, String where) {
        if (!tag.startsWith("tag:")) {
            throw new PolicyException(where + "tag names must start with tag:");
        }
        String name = tag.substring(4);
        if (name.isEmpty() || !isAsciiLetter(name.charAt(0))) {
            throw new PolicyException(where + "tag names must start with a letter, after 'tag:'");
        }
        if (!name.chars().allMatch(c -> isAsciiLetter((char) c) || (c >= '0' && c <= '9') || c == '-')) {
            throw new PolicyException(where + "tag names can only contain numbers, letters, or dashes");
        }
    }

    private static boolean isAsciiLetter(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    }

    private static Map<String, String> hosts(JsonNode node) {
        if (!present(node)) {
            return Map.of();
        }
        if (!node.isObject()) {
            throw new PolicyException("parsing policy: \"hosts\" must be an object");
        }
        Map<String, String> hosts = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> entry : node.properties()) {
            String name = entry.getKey();
            if (name.isEmpty() || name.contains(":") || name.contains("@") || name.equals("*")) {
                throw new PolicyException("hosts[\"" + name + "\"]: invalid host name");
            }
            JsonNode value = entry.getValue();
            if (!value.isString() || !isPrefixOrAddress(value.stringValue())) {
                throw new PolicyException("hosts[\"" + name + "\"]: must be an IP address or prefix");
            }
            hosts.put(name, value.stringValue());
        }
        return hosts;
    }

    private static boolean isPrefixOrAddress(String text) {
        try {
            IpBlock.parse(text);
            return !text.contains("-");
        } catch (RuntimeException e) {
            return false;
        }
    }

    /** The error texts are this server's own (the vendor's are not known). */
    private static AutoApprovers autoApprovers(JsonNode node, References refs) {
        if (!present(node)) {
            return AutoApprovers.NONE;
        }
        if (!node.isObject()) {
            throw new PolicyException("parsing policy: \"autoApprovers\" must be an object");
        }
        Map<String, AutoApprovers.RouteApprovers> routes = new LinkedHashMap<>();
        JsonNode routesNode = node.path("routes");
        if (present(routesNode) && !routesNode.isObject()) {
            throw new PolicyException("parsing policy: \"autoApprovers.routes\" must be an object");
        }
        if (present(routesNode)) {
            for (Map.Entry<String, JsonNode> entry : routesNode.properties()) {
                String where = "autoApprovers.routes[\"" + entry.getKey() + "\"]";
                IpBlock prefix;
                try {
                    prefix = IpBlock.of(IpPrefix.parse(entry.getKey()));
                } catch (IllegalArgumentException e) {
                    throw new PolicyException(where + ": not a CIDR prefix");
                }
                routes.put(entry.getKey(), new AutoApprovers.RouteApprovers(prefix,
                        approvers(approverTexts(entry.getValue(), where), where, refs)));
            }
        }
        List<Alias> exitNode = present(node.path("exitNode")) ? approvers(approverTexts(node.path("exitNode"),
                "autoApprovers.exitNode"), "autoApprovers.exitNode", refs) : List.of();
        for (String key : node.propertyNames()) {
            if (!Set.of("routes", "exitNode", "services").contains(key)) {
                throw new PolicyException("autoApprovers: unknown field \"" + key + "\"");
            }
        }
        return new AutoApprovers(routes, exitNode);
    }

    private static List<String> approverTexts(JsonNode node, String where) {
        if (!node.isArray()) {
            throw new PolicyException(where + ": must be a list of strings");
        }
        List<String> texts = new ArrayList<>();
        for (JsonNode value : node) {
            if (!value.isString()) {
                throw new PolicyException(where + ": must be a list of strings");
            }
            texts.add(value.stringValue());
        }
        return texts;
    }

    private static List<Alias> approvers(List<String> texts, String where, References refs) {
        List<Alias> aliases = new ArrayList<>();
        for (String text : texts) {
            Alias alias;
            try {
                alias = Alias.parse(text);
            } catch (PolicyException e) {
                throw new PolicyException(where + ": " + e.getMessage(), text);
            }
            refs.missing(alias).ifPresent(reason -> {
                throw new PolicyException(where + ": " + reason, text);
            });
            aliases.add(alias);
        }
        return aliases;
    }

    static boolean present(JsonNode node) {
        return !node.isMissingNode() && !node.isNull();
    }

    /** A section that is a list of objects; absent is empty. */
    static List<JsonNode> list(JsonNode node, String section) {
        if (!present(node)) {
            return List.of();
        }
        if (!node.isArray()) {
            throw new PolicyException("parsing policy: \"" + section + "\" must be a list");
        }
        List<JsonNode> entries = new ArrayList<>();
        for (JsonNode entry : node) {
            if (!entry.isObject()) {
                throw new PolicyException("parsing policy: \"" + section + "\" entries must be objects");
            }
            entries.add(entry);
        }
        return entries;
    }

    /** A list of strings; absent or null is empty. */
    static List<String> strings(JsonNode node, String field) {
        if (!present(node)) {
            return List.of();
        }
        if (!node.isArray()) {
            throw new PolicyException("parsing policy: \"" + field + "\" must be a list of strings");
        }
        List<String> values = new ArrayList<>();
        for (JsonNode value : node) {
            if (!value.isString()) {
                throw new PolicyException("parsing policy: \"" + field + "\" must be a list of strings");
            }
            values.add(value.stringValue());
        }
        return values;
    }

    static Optional<String> string(JsonNode node, String field) {
        if (!present(node)) {
            return Optional.empty();
        }
        if (!node.isString()) {
            throw new PolicyException("parsing policy: \"" + field + "\" must be a string");
        }
        return Optional.of(node.stringValue());
    }

    static Map<String, List<String>> stringLists(JsonNode node, String section) {
        if (!present(node)) {
            return Map.of();
        }
        if (!node.isObject()) {
            throw new PolicyException("parsing policy: \"" + section + "\" must be an object");
        }
        Map<String, List<String>> result = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> entry : node.properties()) {
            JsonNode value = entry.getValue();
            if (!value.isArray()) {
                throw new PolicyException(section + "[\"" + entry.getKey() + "\"]: must be a list of strings");
            }
            List<String> values = new ArrayList<>();
            for (JsonNode item : value) {
                if (!item.isString()) {
                    throw new PolicyException(section + "[\"" + entry.getKey() + "\"]: must be a list of strings");
                }
                values.add(item.stringValue());
            }
            result.put(entry.getKey(), List.copyOf(values));
        }
        return result;
    }
}
