package io.meshcontrol.core.policy;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import tools.jackson.databind.JsonNode;

/** Reads and checks the {@code acls} section; every alias must name something the policy defines. */
final class AclParser {

    private static final Set<String> AUTOGROUPS_SRC = Set.of("autogroup:member", "autogroup:tagged");
    private static final Set<String> AUTOGROUPS_DST = Set.of("autogroup:member", "autogroup:tagged", "autogroup:self");

    private AclParser() {
    }

    /** @return null when the section is absent */
    static List<AclRule> parse(JsonNode node, Map<String, List<String>> groups, Map<String, List<String>> tagOwners,
            Map<String, String> hosts) {
        if (node.isMissingNode() || node.isNull()) {
            return null;
        }
        if (!node.isArray()) {
            throw new PolicyException("parsing policy: \"acls\" must be a list");
        }
        List<AclRule> rules = new ArrayList<>();
        for (JsonNode entry : node) {
            String action = entry.path("action").asString("");
            if (!action.equals("accept")) {
                throw new PolicyException("action=\"" + action + "\" is not supported: use \"accept\"");
            }
            List<String> src = strings(entry.path("src"), "src");
            List<String> dst = strings(entry.path("dst"), "dst");
            List<String> proto = entry.path("proto").isMissingNode() ? List.of() : List.of(entry.path("proto").asString());
            for (String alias : src) {
                checkAlias("src", alias, groups, tagOwners, hosts, AUTOGROUPS_SRC);
            }
            for (String target : dst) {
                int colon = target.lastIndexOf(':');
                if (colon <= 0 || colon == target.length() - 1) {
                    throw new PolicyException("dst=\"" + target + "\": want alias:ports, e.g. tag:web:443");
                }
                Ports.parse(target.substring(colon + 1));
                checkAlias("dst", target.substring(0, colon), groups, tagOwners, hosts, AUTOGROUPS_DST);
            }
            rules.add(new AclRule(action, src, dst, proto));
        }
        return rules;
    }

    private static void checkAlias(String side, String alias, Map<String, List<String>> groups,
            Map<String, List<String>> tagOwners, Map<String, String> hosts, Set<String> autogroups) {
        if (alias.equals("*") || alias.contains("@") || IpLiterals.isAddressOrPrefix(stripBrackets(alias))) {
            return;
        }
        if (alias.startsWith("group:") && !groups.containsKey(alias)) {
            throw new PolicyException(side + "=group not found: \"" + alias + "\"");
        }
        if (alias.startsWith("tag:") && !tagOwners.containsKey(alias)) {
            throw new PolicyException(side + "=tag not found: \"" + alias + "\"");
        }
        if (alias.startsWith("autogroup:") && !autogroups.contains(alias)) {
            throw new PolicyException(side + "=\"" + alias + "\" is not supported here");
        }
        if (!alias.startsWith("group:") && !alias.startsWith("tag:") && !alias.startsWith("autogroup:")
                && !hosts.containsKey(alias)) {
            throw new PolicyException(side + "=host not found: \"" + alias + "\"");
        }
    }

    static String stripBrackets(String alias) {
        return alias.startsWith("[") && alias.endsWith("]") ? alias.substring(1, alias.length() - 1) : alias;
    }

    private static List<String> strings(JsonNode node, String field) {
        if (!node.isArray()) {
            throw new PolicyException("acls: \"" + field + "\" must be a list of strings");
        }
        List<String> values = new ArrayList<>();
        for (JsonNode value : node) {
            values.add(value.asString());
        }
        return values;
    }
}
