package io.meshcontrol.core.netmap;

import io.meshcontrol.core.model.Node;
import io.meshcontrol.core.model.User;
import io.meshcontrol.core.policy.AclRule;
import io.meshcontrol.core.policy.IpLiterals;
import io.meshcontrol.core.policy.Policy;
import io.meshcontrol.core.policy.Ports;
import io.meshcontrol.core.state.NetworkSnapshot;
import io.meshcontrol.core.wire.FilterRule;
import io.meshcontrol.core.wire.IpPrefix;
import io.meshcontrol.core.wire.NetPortRange;
import io.meshcontrol.core.wire.PortRange;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The policy's {@code acls} applied to the nodes of one snapshot: which nodes a node may see (it may reach them,
 * or they may reach it) and the packet filter it enforces (the rules whose destination is itself). A policy
 * without an {@code acls} section allows everything.
 *
 * <p>Aliases are resolved once per compile; visibility is answered per pair from the resolved sets.
 */
public final class AccessRules {

    private static final String ANY = "*";
    private static final Map<String, Integer> PROTOCOLS = Map.of("tcp", 6, "udp", 17, "icmp", 1, "ipv6-icmp", 58);

    /**
     * What an alias stands for: the nodes it covers (for visibility) and the addresses it names (for filters).
     * A node alias names the nodes' addresses; an address or prefix names just itself.
     */
    private record Target(boolean any, Set<Long> nodes, List<String> addresses) {
    }

    /** A destination entry; {@code target} is null for {@code autogroup:self}. */
    private record Destination(Target target, List<PortRange> ports) {
    }

    private record Rule(Target src, List<Destination> dsts, List<Integer> protocols) {
    }

    private final NetworkSnapshot snapshot;
    private final List<Rule> rules;
    private final boolean allowAll;

    private AccessRules(NetworkSnapshot snapshot, List<Rule> rules, boolean allowAll) {
        this.snapshot = snapshot;
        this.rules = rules;
        this.allowAll = allowAll;
    }

    public static AccessRules compile(Policy policy, NetworkSnapshot snapshot) {
        if (policy.acls() == null) {
            return new AccessRules(snapshot, List.of(), true);
        }
        Resolver resolver = new Resolver(policy, snapshot);
        List<Rule> rules = new ArrayList<>();
        for (AclRule acl : policy.acls()) {
            List<Destination> dsts = new ArrayList<>();
            for (String entry : acl.dst()) {
                int colon = entry.lastIndexOf(':');
                String alias = entry.substring(0, colon);
                dsts.add(new Destination(alias.equals("autogroup:self") ? null : resolver.resolve(alias),
                        Ports.parse(entry.substring(colon + 1))));
            }
            rules.add(new Rule(resolver.union(acl.src()), dsts, protocols(acl.proto())));
        }
        return new AccessRules(snapshot, rules, false);
    }

    /** Whether {@code a} and {@code b} are peers: either may reach the other. */
    public boolean sees(Node a, Node b) {
        return allowAll || reaches(a, b) || reaches(b, a);
    }

    /** The packet filter {@code node} enforces: who may reach it, on which ports. */
    public List<FilterRule> packetFilter(Node node) {
        if (allowAll) {
            return List.of(FilterRule.ALLOW_ALL);
        }
        List<FilterRule> filter = new ArrayList<>();
        for (Rule rule : rules) {
            List<NetPortRange> dstPorts = new ArrayList<>();
            List<String> selfSources = new ArrayList<>();
            for (Destination dst : rule.dsts()) {
                if (dst.target() == null) {
                    List<String> sameUser = sameUserSources(rule.src(), node);
                    if (!sameUser.isEmpty()) {
                        selfSources.addAll(sameUser);
                        filter.add(new FilterRule(sameUser, List.of(), ranges(addresses(node), dst.ports()),
                                rule.protocols(), List.of()));
                    }
                } else if (dst.target().any()) {
                    dstPorts.addAll(ranges(List.of(ANY), dst.ports()));
                } else if (dst.target().nodes().contains(node.id())) {
                    dstPorts.addAll(ranges(addresses(node), dst.ports()));
                }
            }
            if (!dstPorts.isEmpty()) {
                filter.add(new FilterRule(sources(rule.src()), List.of(), dstPorts, rule.protocols(), List.of()));
            }
        }
        return filter;
    }

    private boolean reaches(Node from, Node to) {
        for (Rule rule : rules) {
            if (!(rule.src().any() || rule.src().nodes().contains(from.id()))) {
                continue;
            }
            for (Destination dst : rule.dsts()) {
                if (dst.target() == null ? sameUser(from, to)
                        : dst.target().any() || dst.target().nodes().contains(to.id())) {
                    return true;
                }
            }
        }
        return false;
    }

    private static boolean sameUser(Node a, Node b) {
        return !a.isTagged() && !b.isTagged() && a.userId() != null && a.userId().equals(b.userId());
    }

    private List<String> sameUserSources(Target src, Node node) {
        List<String> sources = new ArrayList<>();
        for (Node candidate : snapshot.nodes().values()) {
            if (sameUser(candidate, node) && (src.any() || src.nodes().contains(candidate.id()))) {
                sources.addAll(addresses(candidate));
            }
        }
        return sources;
    }

    private static List<String> sources(Target src) {
        return src.any() ? List.of(ANY) : List.copyOf(new LinkedHashSet<>(src.addresses()));
    }

    private static List<String> addresses(Node node) {
        return List.of(node.ipv4(), node.ipv6());
    }

    private static List<NetPortRange> ranges(List<String> ips, List<PortRange> ports) {
        List<NetPortRange> ranges = new ArrayList<>();
        for (String ip : ips) {
            for (PortRange port : ports) {
                ranges.add(new NetPortRange(ip, null, port));
            }
        }
        return ranges;
    }

    private static List<Integer> protocols(List<String> names) {
        List<Integer> protocols = new ArrayList<>();
        for (String name : names) {
            Integer number = PROTOCOLS.get(name.toLowerCase(Locale.ROOT));
            protocols.add(number != null ? number : Integer.parseInt(name));
        }
        return protocols;
    }

    /** Resolves aliases against the snapshot's users and nodes. */
    private static final class Resolver {
        private final Policy policy;
        private final NetworkSnapshot snapshot;

        Resolver(Policy policy, NetworkSnapshot snapshot) {
            this.policy = policy;
            this.snapshot = snapshot;
        }

        Target union(List<String> aliases) {
            return merge(aliases.stream().map(this::resolve).toList());
        }

        private static Target merge(List<Target> targets) {
            Set<Long> nodes = new LinkedHashSet<>();
            List<String> addresses = new ArrayList<>();
            for (Target one : targets) {
                if (one.any()) {
                    return one;
                }
                nodes.addAll(one.nodes());
                addresses.addAll(one.addresses());
            }
            return new Target(false, nodes, addresses);
        }

        Target resolve(String alias) {
            if (alias.equals(ANY)) {
                return new Target(true, Set.of(), List.of());
            }
            if (alias.startsWith("group:")) {
                return merge(policy.groups().getOrDefault(alias, List.of()).stream().map(this::user).toList());
            }
            if (alias.startsWith("tag:")) {
                return nodes(node -> node.tags().contains(alias));
            }
            if (alias.equals("autogroup:member")) {
                return nodes(node -> !node.isTagged());
            }
            if (alias.equals("autogroup:tagged")) {
                return nodes(Node::isTagged);
            }
            if (policy.hosts().containsKey(alias)) {
                return prefix(policy.hosts().get(alias));
            }
            String literal = alias.startsWith("[") && alias.endsWith("]") ? alias.substring(1, alias.length() - 1) : alias;
            if (IpLiterals.isAddressOrPrefix(literal)) {
                return prefix(literal);
            }
            return user(alias);
        }

        /** A user's own (untagged) nodes, the user named by e-mail, {@code name@} or name; unknown: none. */
        private Target user(String login) {
            for (User user : snapshot.users().values()) {
                if (login.equals(user.email()) || login.equals(user.name() + "@") || login.equals(user.name())) {
                    long id = user.id();
                    return nodes(node -> !node.isTagged() && node.userId() != null && node.userId() == id);
                }
            }
            return new Target(false, Set.of(), List.of());
        }

        private Target prefix(String text) {
            IpPrefix prefix = IpLiterals.prefix(text);
            return new Target(false, nodesIn(prefix), List.of(text));
        }

        private Set<Long> nodesIn(IpPrefix prefix) {
            Set<Long> inside = new HashSet<>();
            for (Node node : snapshot.nodes().values()) {
                if (IpLiterals.contains(prefix, node.ipv4()) || IpLiterals.contains(prefix, node.ipv6())) {
                    inside.add(node.id());
                }
            }
            return inside;
        }

        private Target nodes(java.util.function.Predicate<Node> condition) {
            Set<Long> matching = new LinkedHashSet<>();
            List<String> addresses = new ArrayList<>();
            snapshot.nodes().values().stream().filter(condition).sorted(java.util.Comparator.comparingLong(Node::id))
                    .forEach(node -> {
                        matching.add(node.id());
                        addresses.addAll(addresses(node));
                    });
            return new Target(false, matching, addresses);
        }
    }
}
