package io.meshcontrol.core.policy;

import io.meshcontrol.core.wire.PortRange;
import io.meshcontrol.core.wire.RawJson;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * One access rule resolved against the network: an {@code acls} entry, or one protocol group or the {@code app}
 * part of a grant. Holds the machine sets the per-node questions need, computed once per compilation.
 */
final class AccessRule {

    /** A destination with the ports it is open on (ignored for a capability rule). */
    record Destination(Target target, List<PortRange> ports) {
    }

    final Target src;
    final List<Destination> dsts;
    final List<Integer> protocols;
    /** Capabilities granted, or null for a port rule. */
    final Map<String, List<RawJson>> capMap;
    /** Router tags the rule applies through; empty for any router. */
    final Set<String> via;
    /** Source IPs as the filter writes them, sorted as text: made on first use ({@link #srcIps()}). */
    private volatile List<String> srcIps;
    private final NodeIndex index;
    /** Machines that are sources by identity or own address. */
    final BitSet srcMachines;
    /** Machines that are sources: by identity, by address, or by serving a source subnet. */
    final BitSet srcMembers;
    /** Machines that get a filter entry from this rule (but {@code autogroup:self}, which depends on the source). */
    final BitSet dstTargets;
    final boolean self;

    private AccessRule(Target src, List<Destination> dsts, List<Integer> protocols, Map<String, List<RawJson>> capMap,
            Set<String> via, NodeIndex index) {
        this.src = src;
        this.dsts = List.copyOf(dsts);
        this.protocols = List.copyOf(protocols);
        this.capMap = capMap;
        this.via = via;
        this.index = index;
        this.srcMachines = src.machines(index.size());
        this.srcMembers = members(srcMachines, src, index);
        this.dstTargets = new BitSet();
        boolean anySelf = false;
        for (Destination dst : dsts) {
            dstTargets.or(targets(dst.target(), index));
            anySelf |= dst.target().self();
        }
        this.self = anySelf;
    }

    /**
     * Source IPs as the filter writes them, sorted as text. Made when a filter first needs them: a rule only to
     * {@code autogroup:self} from {@code autogroup:member} never does (each user's fragment has its own sources), and
     * sorting every member's addresses at each join's compilation was a quarter of a 10,000-node join's CPU.
     * Racy but idempotent: two threads may both make the same list.
     */
    List<String> srcIps() {
        List<String> ips = srcIps;
        if (ips == null) {
            ips = sourceIps(src, index);
            srcIps = ips;
        }
        return ips;
    }

    /** Every rule of a policy, in the vendor's order: grants, then acls; the implicit allow-all when it has neither. */
    static List<AccessRule> of(Policy policy, AliasResolver resolver, NodeIndex index) {
        List<AccessRule> rules = new ArrayList<>();
        if (policy.allowsEverything()) {
            Target all = resolver.resolve(new Alias.Wildcard());
            rules.add(new AccessRule(all, List.of(new Destination(all, List.of(PortRange.ANY))), List.of(), null,
                    Set.of(), index));
            return rules;
        }
        for (Grant grant : policy.grants() == null ? List.<Grant>of() : policy.grants()) {
            if (grant.src().isEmpty()) {
                continue; // nobody: not even an empty filter rule
            }
            Target src = withPosture(resolver.resolve(grant.src()), policy.srcPostures(grant.srcPosture()), index);
            List<Target> dstTargets = grant.dst().stream().map(resolver::resolve).toList();
            Set<String> via = Set.copyOf(grant.via());
            for (Map.Entry<List<Integer>, List<PortRange>> group : byProtocol(grant.ip()).entrySet()) {
                List<Map.Entry<Alias, List<PortRange>>> entries = grant.dst().stream()
                        .map(alias -> Map.entry(alias, group.getValue())).toList();
                rules.add(new AccessRule(src, destinations(entries, resolver), group.getKey(), null, via, index));
            }
            if (!grant.app().isEmpty()) {
                List<Destination> dsts = dstTargets.stream().map(t -> new Destination(t, List.of())).toList();
                rules.add(new AccessRule(src, dsts, List.of(), grant.app(), via, index));
                for (String companion : COMPANIONS.entrySet().stream().filter(e -> grant.app().containsKey(e.getKey()))
                        .map(Map.Entry::getValue).sorted().toList()) {
                    rules.add(reverse(src, dstTargets, companion, via, index));
                }
            }
        }
        for (AclRule acl : policy.acls() == null ? List.<AclRule>of() : policy.acls()) {
            List<Map.Entry<Alias, List<PortRange>>> entries = acl.dst().stream()
                    .map(d -> Map.entry(d.alias(), d.ports())).toList();
            List<Destination> dsts = destinations(entries, resolver);
            Target src = withPosture(resolver.resolve(acl.src()), policy.srcPostures(acl.srcPosture()), index);
            rules.add(new AccessRule(src, dsts, acl.protocols(), null, Set.of(), index));
        }
        return rules;
    }

    /**
     * The sources that satisfy one of the postures: machines only (a posture is a property of a machine, so
     * address literals and the routes behind routers drop out, and {@code *} becomes the matching machines'
     * addresses). Unchanged without postures.
     */
    private static Target withPosture(Target src, List<DevicePosture> postures, NodeIndex index) {
        if (postures.isEmpty()) {
            return src;
        }
        BitSet machines = src.machines(index.size());
        if (src.dangerAll()) {
            machines.set(0, index.size());
        }
        return new Target(satisfying(machines, postures, index), new BitSet(), List.of(), false, false, false, false);
    }

    /** The machines that satisfy one of the postures; all of them without postures. */
    static BitSet satisfying(BitSet machines, List<DevicePosture> postures, NodeIndex index) {
        if (postures.isEmpty()) {
            return machines;
        }
        BitSet satisfying = new BitSet();
        for (int i = machines.nextSetBit(0); i >= 0; i = machines.nextSetBit(i + 1)) {
            MachineFacts facts = index.entry(i).node().facts();
            if (postures.stream().anyMatch(posture -> posture.satisfiedBy(facts))) {
                satisfying.set(i);
            }
        }
        return satisfying;
    }

    /**
     * Destinations as the vendor orders them: entries of the same alias merge (their ports in order), and aliases
     * follow by kind: {@code *}, users, groups, {@code autogroup:self}, other autogroups, tags, hosts, addresses.
     */
    private static List<Destination> destinations(List<Map.Entry<Alias, List<PortRange>>> entries,
            AliasResolver resolver) {
        Map<String, Alias> aliases = new LinkedHashMap<>();
        Map<String, LinkedHashSet<PortRange>> ports = new LinkedHashMap<>();
        for (Map.Entry<Alias, List<PortRange>> entry : entries) {
            aliases.putIfAbsent(entry.getKey().text(), entry.getKey());
            ports.computeIfAbsent(entry.getKey().text(), t -> new LinkedHashSet<>()).addAll(entry.getValue());
        }
        return aliases.values().stream().sorted(java.util.Comparator.comparingInt(AccessRule::rank))
                .map(alias -> new Destination(resolver.resolve(alias), List.copyOf(ports.get(alias.text()))))
                .toList();
    }

    private static int rank(Alias alias) {
        return switch (alias) {
            case Alias.Wildcard w -> 0;
            case Alias.User u -> 1;
            case Alias.Domain d -> 1;
            case Alias.Group g -> 2;
            case Alias.Auto(AutoGroup group) -> group == AutoGroup.SELF ? 3 : 4;
            case Alias.Tag t -> 5;
            case Alias.Host h -> 6;
            case Alias.Address a -> 7;
        };
    }

    /**
     * Capabilities the vendor answers with a capability in the other direction: whoever is granted Taildrive access
     * or a peer relay must be known to the destination as a sharer or relay target.
     */
    private static final Map<String, String> COMPANIONS = Map.of("tailscale.com/cap/drive", "tailscale.com/cap/drive-sharer",
            "tailscale.com/cap/relay", "tailscale.com/cap/relay-target");

    private static AccessRule reverse(Target src, List<Target> dsts, String capability, Set<String> via,
            NodeIndex index) {
        Map<String, List<RawJson>> cap = new LinkedHashMap<>();
        cap.put(capability, null);
        boolean self = dsts.stream().anyMatch(Target::self);
        Target from = self ? src : Target.union(dsts);
        List<Destination> to = self ? dsts.stream().filter(Target::self).map(t -> new Destination(t, List.of())).toList()
                : List.of(new Destination(src, List.of()));
        return new AccessRule(from, to, List.of(), java.util.Collections.unmodifiableMap(cap), via, index);
    }

    /** A grant's {@code ip} entries grouped by protocol (first appearance first), ports without repeats. */
    private static Map<List<Integer>, List<PortRange>> byProtocol(List<Grant.IpSpec> specs) {
        Map<List<Integer>, LinkedHashSet<PortRange>> groups = new LinkedHashMap<>();
        for (Grant.IpSpec spec : specs) {
            groups.computeIfAbsent(spec.protocols(), p -> new LinkedHashSet<>()).addAll(spec.ports());
        }
        Map<List<Integer>, List<PortRange>> result = new LinkedHashMap<>();
        groups.forEach((protocols, ports) -> result.put(protocols, List.copyOf(ports)));
        return result;
    }

    boolean isCapability() {
        return capMap != null;
    }

    /** Whether the router may carry this rule's routed traffic ({@code via}). */
    boolean through(NodeIndex.Entry router) {
        return via.isEmpty() || router.node().tags().stream().anyMatch(via::contains);
    }

    private BitSet targets(Target target, NodeIndex index) {
        BitSet targets = target.machines(index.size());
        for (int i = index.routers().nextSetBit(0); i >= 0; i = index.routers().nextSetBit(i + 1)) {
            NodeIndex.Entry router = index.entry(i);
            if (through(router) && (target.wildcard() || servesAny(router, target.literals()))) {
                targets.set(i);
            }
        }
        for (int i = index.exitNodes().nextSetBit(0); i >= 0; i = index.exitNodes().nextSetBit(i + 1)) {
            NodeIndex.Entry exit = index.entry(i);
            if (through(exit) && (target.internet()
                    || target.literals().stream().anyMatch(l -> TailnetRanges.inInternet(l.block())))) {
                targets.set(i);
            }
        }
        return targets;
    }

    static boolean servesAny(NodeIndex.Entry router, List<Target.Literal> literals) {
        for (Target.Literal literal : literals) {
            for (NodeIndex.Route route : router.subnetRoutes()) {
                if (route.block().overlaps(literal.block())) {
                    return true;
                }
            }
        }
        return false;
    }

    private static BitSet members(BitSet machines, Target src, NodeIndex index) {
        BitSet members = (BitSet) machines.clone();
        for (int i = index.routers().nextSetBit(0); i >= 0; i = index.routers().nextSetBit(i + 1)) {
            if (servesAny(index.entry(i), src.literals())) {
                members.set(i);
            }
        }
        return members;
    }

    /**
     * Sources as the vendor writes them: {@code *} becomes the node address ranges plus every approved subnet route;
     * machines named otherwise become their addresses (even next to {@code *}); literals stay as written. Sorted as
     * text, without repeats.
     */
    private static List<String> sourceIps(Target src, NodeIndex index) {
        if (src.dangerAll()) {
            return List.of("*");
        }
        TreeSet<String> ips = new TreeSet<>();
        if (src.wildcard()) {
            ips.addAll(TailnetRanges.WILDCARD_SOURCES);
            ips.addAll(index.subnetRouteTexts());
            ips.addAll(index.foreignAddresses());
        }
        for (int i = src.nodes().nextSetBit(0); i >= 0; i = src.nodes().nextSetBit(i + 1)) {
            ips.addAll(index.entry(i).node().addresses());
        }
        src.literals().forEach(literal -> ips.add(literal.text()));
        return List.copyOf(ips);
    }
}
