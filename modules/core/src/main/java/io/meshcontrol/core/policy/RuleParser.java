package io.meshcontrol.core.policy;

import io.meshcontrol.core.wire.PortRange;
import io.meshcontrol.core.wire.RawJson;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/** The access sections: {@code acls} and {@code grants}, with the vendor's checks and error texts. */
final class RuleParser {

    private final References refs;
    private final Map<String, DevicePosture> postures;

    RuleParser(References refs, Map<String, DevicePosture> postures) {
        this.refs = refs;
        this.postures = postures;
    }

    List<AclRule> acls(List<JsonNode> entries) {
        List<AclRule> rules = new ArrayList<>();
        for (JsonNode entry : entries) {
            String action = PolicyParser.string(entry.path("action"), "action").orElse("");
            if (!action.equals("accept")) {
                throw new PolicyException("action=\"" + action + "\" is not supported");
            }
            List<Alias> src = sources(PolicyParser.strings(either(entry, "src", "users"), "src"));
            List<AclRule.Destination> dst = new ArrayList<>();
            for (String text : PolicyParser.strings(either(entry, "dst", "ports"), "dst")) {
                dst.add(destination(text));
            }
            checkSelf(src, dst.stream().map(AclRule.Destination::alias).toList(), true);
            rules.add(new AclRule(src, dst, Protocols.parse(protoText(entry.path("proto"))),
                    PostureParser.references(entry.path("srcPosture"), "srcPosture", postures)));
        }
        return List.copyOf(rules);
    }

    List<Grant> grants(List<JsonNode> entries) {
        List<Grant> grants = new ArrayList<>();
        for (JsonNode entry : entries) {
            List<Grant.IpSpec> ip = new ArrayList<>();
            for (String text : PolicyParser.strings(entry.path("ip"), "ip")) {
                ip.add(ipSpec(text));
            }
            Map<String, List<RawJson>> app = app(entry.path("app"), true);
            if (ip.isEmpty() && app.isEmpty()) {
                throw new PolicyException("ip and app can not both be empty");
            }
            List<Alias> src = sources(PolicyParser.strings(entry.path("src"), "src"));
            List<Alias> dst = new ArrayList<>();
            for (String text : PolicyParser.strings(entry.path("dst"), "dst")) {
                Alias alias = refs.destination(text);
                if (alias instanceof Alias.Address address && address.block().isEverything()) {
                    throw new PolicyException("dst \"" + text
                            + "\": to allow all IP addresses, use \"*\" or \"autogroup:internet\"");
                }
                checkDestination(alias);
                if (!app.isEmpty() && alias instanceof Alias.Auto(AutoGroup group) && group == AutoGroup.INTERNET) {
                    throw new PolicyException("cannot use app grants with autogroup:internet");
                }
                dst.add(alias);
            }
            checkSelf(src, dst, false);
            List<String> via = PolicyParser.strings(entry.path("via"), "via");
            for (String tag : via) {
                if (!tag.startsWith("tag:")) {
                    throw new PolicyException("via can only be a tag");
                }
                if (!refs.tagOwners().containsKey(tag)) {
                    throw new PolicyException("tag \"" + tag + "\" not found");
                }
            }
            grants.add(new Grant(src, dst, ip, via, app,
                    PostureParser.references(entry.path("srcPosture"), "srcPosture", postures)));
        }
        return List.copyOf(grants);
    }

    private List<Alias> sources(List<String> texts) {
        List<Alias> aliases = new ArrayList<>();
        for (String text : texts) {
            Alias alias = refs.source(text);
            if (alias instanceof Alias.Auto(AutoGroup group) && (group == AutoGroup.SELF || group == AutoGroup.INTERNET
                    || group == AutoGroup.NONROOT)) {
                throw new PolicyException("\"" + text + "\" not valid on the src side of a rule");
            }
            aliases.add(alias);
        }
        return aliases;
    }

    /** {@code alias:ports}; the ports follow the last colon, so IPv6 addresses need no brackets. */
    private AclRule.Destination destination(String text) {
        int colon = text.lastIndexOf(':');
        if (colon < 0) {
            throw new PolicyException("dst=\"" + text + "\": missing port");
        }
        String aliasText = text.substring(0, colon);
        List<PortRange> ports;
        try {
            ports = Ports.parse(text.substring(colon + 1));
        } catch (PolicyException e) {
            throw new PolicyException("dst=\"" + text + "\": " + e.getMessage());
        }
        Alias alias = refs.destination(aliasText);
        checkDestination(alias);
        return new AclRule.Destination(alias, ports);
    }

    private static void checkDestination(Alias alias) {
        if (alias instanceof Alias.Auto(AutoGroup group)) {
            if (group == AutoGroup.DANGER_ALL) {
                throw new PolicyException("cannot use autogroup:danger-all as a dst");
            }
            if (group == AutoGroup.NONROOT) {
                throw new PolicyException("\"autogroup:nonroot\" not valid on the dst side of a rule");
            }
        }
    }

    /**
     * {@code autogroup:self} in a destination means "the source user's own machines", so every source must be
     * a user or a set of users. ACLs also allow {@code *} there; grants do not.
     */
    static void checkSelf(List<Alias> src, List<Alias> dst, boolean wildcardAllowed) {
        boolean self = dst.stream().anyMatch(a -> a instanceof Alias.Auto(AutoGroup g) && g == AutoGroup.SELF);
        if (!self) {
            return;
        }
        for (Alias alias : src) {
            boolean users = switch (alias) {
                case Alias.User u -> true;
                case Alias.Group g -> true;
                case Alias.Domain d -> true;
                case Alias.Wildcard w -> wildcardAllowed;
                case Alias.Auto(AutoGroup group) -> group == AutoGroup.MEMBER || group.role() != null;
                default -> false;
            };
            if (!users) {
                throw new PolicyException("autogroup:self can only be used with users, groups, or supported autogroups");
            }
        }
    }

    private static Grant.IpSpec ipSpec(String text) {
        if (text.equals("*")) {
            return new Grant.IpSpec(List.of(), List.of(PortRange.ANY));
        }
        int colon = text.indexOf(':');
        if (colon < 0) {
            return new Grant.IpSpec(List.of(), Ports.parse(text));
        }
        if (text.indexOf(':', colon + 1) >= 0) {
            throw new PolicyException("ip \"" + text + "\": expected only one colon in Internet protocol and port type");
        }
        return new Grant.IpSpec(Protocols.parse(text.substring(0, colon)), Ports.parse(text.substring(colon + 1)));
    }

    /** The vendor's own application capabilities a policy may grant (Taildrive, Kubernetes, relays, web UI, tsidp). */
    private static final java.util.Set<String> GRANTABLE_VENDOR_CAPS = java.util.Set.of("tailscale.com/cap/drive",
            "tailscale.com/cap/kubernetes", "tailscale.com/cap/relay", "tailscale.com/cap/webui",
            "tailscale.com/cap/tsidp");

    /**
     * Capability names are {@code domain/path}, outside the vendor's own domain but for the few of its capabilities
     * meant to be granted; values are kept as written.
     */
    /** @param granted whether these are peer capabilities of a grant (whose names the vendor restricts) */
    static Map<String, List<RawJson>> app(JsonNode node, boolean granted) {
        if (!PolicyParser.present(node)) {
            return Map.of();
        }
        if (!node.isObject()) {
            throw new PolicyException("parsing policy: \"app\" must be an object");
        }
        Map<String, List<RawJson>> app = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> entry : node.properties()) {
            if (granted) {
                checkCapabilityName(entry.getKey());
            }
            if (!entry.getValue().isArray()) {
                throw new PolicyException("app[\"" + entry.getKey() + "\"]: must be a list of values");
            }
            List<RawJson> values = new ArrayList<>();
            entry.getValue().forEach(value -> values.add(RawJson.of(value)));
            app.put(entry.getKey(), List.copyOf(values));
        }
        return app;
    }

    static void checkCapabilityName(String name) {
        int slash = name.indexOf('/');
        String domain = slash < 0 ? "" : name.substring(0, slash);
        if (slash <= 0 || slash == name.length() - 1 || !domain.contains(".") || name.contains("://")) {
            throw new PolicyException("capability name must have the form {domain}/{path}");
        }
        if ((domain.equals("tailscale.com") || domain.endsWith(".tailscale.com"))
                && !GRANTABLE_VENDOR_CAPS.contains(name)) {
            throw new PolicyException("capability name must not be in the tailscale.com domain");
        }
    }

    private static JsonNode either(JsonNode entry, String field, String legacy) {
        return PolicyParser.present(entry.path(field)) ? entry.path(field) : entry.path(legacy);
    }

    private static String protoText(JsonNode node) {
        if (!PolicyParser.present(node)) {
            return "";
        }
        return node.isNumber() ? node.asString() : PolicyParser.string(node, "proto").orElse("");
    }
}
