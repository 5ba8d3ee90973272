package io.meshcontrol.core.policy;

import io.meshcontrol.core.net.IpBlock;
import io.meshcontrol.core.net.IpPrefix;
import io.meshcontrol.core.wire.CapGrant;
import io.meshcontrol.core.wire.FilterRule;
import io.meshcontrol.core.wire.NetPortRange;
import io.meshcontrol.core.wire.PortRange;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.TreeSet;

/**
 * The packet filter of one machine: every rule whose destinations include the machine itself, a subnet it serves,
 * or (for an exit node) the internet, reduced to those destinations.
 */
final class PacketFilters {

    /**
     * What makes two rules one filter rule: the same sources and protocols. Capability rules never merge (their
     * key carries the rule's index instead of protocols).
     */
    private record Key(List<String> srcIps, List<Integer> protocols, boolean capability, int hash) {
        Key(List<String> srcIps, List<Integer> protocols, boolean capability) {
            // source lists can hold thousands of addresses: hash them once, not at every lookup
            this(srcIps, protocols, capability, java.util.Objects.hash(srcIps, protocols, capability));
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof Key that && hash == that.hash && capability == that.capability
                    && protocols.equals(that.protocols) && srcIps.equals(that.srcIps);
        }

        @Override
        public int hashCode() {
            return hash;
        }
    }

    /** One rule's contribution to a machine's filter, placed where the vendor places it. */
    private static final class Fragment {
        final Key key;
        int position;
        final int suborder;
        final List<NetPortRange> ports = new ArrayList<>();
        final List<CapGrant> grants = new ArrayList<>();

        Fragment(Key key, int position, int suborder) {
            this.key = key;
            this.position = position;
            this.suborder = suborder;
        }
    }

    private final List<AccessRule> rules;
    private final NodeIndex index;
    /** For each rule, the first rule with the same key: the vendor merges such rules there. */
    private final int[] firstOfKey;
    private final Key[] keys;
    /** Per self rule, per user: the key of the user's self fragment, computed once per compilation. */
    private final Map<Integer, Map<Long, Optional<Key>>> selfKeys = new ConcurrentHashMap<>();

    PacketFilters(List<AccessRule> rules, NodeIndex index) {
        this.rules = rules;
        this.index = index;
        this.firstOfKey = new int[rules.size()];
        this.keys = new Key[rules.size()];
        Map<Key, Integer> first = new HashMap<>();
        for (int r = 0; r < rules.size(); r++) {
            AccessRule rule = rules.get(r);
            int at = r;
            // Rules through chosen routers, and rules only to autogroup:self, are per machine for the vendor: they
            // keep their own place and do not draw later rules to theirs, so their key waits until a filter needs it.
            boolean shared = rule.via.isEmpty() && rule.dsts.stream().anyMatch(d -> !d.target().self());
            firstOfKey[r] = shared ? first.computeIfAbsent(key(r), k -> at) : r;
        }
    }

    List<FilterRule> of(int node) {
        NodeIndex.Entry self = index.entry(node);
        Map<Key, Fragment> merged = new LinkedHashMap<>();
        for (int r = 0; r < rules.size(); r++) {
            AccessRule rule = rules.get(r);
            if (rule.self && !self.node().isTagged() && self.user() != null) {
                selfFragment(rule, self, r, merged);
            }
            if (!rule.dstTargets.get(node)) {
                continue;
            }
            if (rule.isCapability()) {
                List<IpPrefix> dsts = capabilityDestinations(rule, self);
                if (!dsts.isEmpty()) {
                    fragment(merged, key(r), r, 0)
                            .grants.add(new CapGrant(dsts, null, rule.capMap));
                }
            } else {
                List<NetPortRange> ports = destinations(rule, self);
                if (!ports.isEmpty() && !rule.srcIps().isEmpty()) {
                    fragment(merged, key(r), firstOfKey[r], 0).ports.addAll(ports);
                }
            }
        }
        List<Fragment> ordered = new ArrayList<>(merged.values());
        ordered.sort(Comparator.comparingInt((Fragment f) -> f.position).thenComparingInt(f -> f.suborder));
        List<FilterRule> filter = new ArrayList<>(ordered.size());
        for (Fragment fragment : ordered) {
            filter.add(fragment.key.capability() ? FilterRule.grant(fragment.key.srcIps(), fragment.grants)
                    : new FilterRule(fragment.key.srcIps(), null, fragment.ports, fragment.key.protocols(), null));
        }
        return List.copyOf(filter);
    }

    /** The rule's key, made on first use. Racy but idempotent: a key is immutable and equal however often made. */
    private Key key(int r) {
        Key key = keys[r];
        if (key == null) {
            AccessRule rule = rules.get(r);
            key = rule.isCapability() ? new Key(rule.srcIps(), List.of(r), true) : key(rule, rule.srcIps());
            keys[r] = key;
        }
        return key;
    }

    private static Key key(AccessRule rule, List<String> srcIps) {
        return new Key(srcIps, rule.protocols, rule.isCapability());
    }

    private static Fragment fragment(Map<Key, Fragment> merged, Key key, int position, int suborder) {
        Fragment fragment = merged.computeIfAbsent(key, k -> new Fragment(k, position, suborder));
        fragment.position = Math.min(fragment.position, position);
        return fragment;
    }

    /** The rule's destinations that concern this machine, as written or as the machine's own addresses. */
    private List<NetPortRange> destinations(AccessRule rule, NodeIndex.Entry self) {
        List<NetPortRange> ranges = new ArrayList<>();
        for (AccessRule.Destination dst : rule.dsts) {
            Target target = dst.target();
            if (target.wildcard()) {
                add(ranges, "*", dst.ports());
                continue;
            }
            if (target.nodes().get(self.index())) {
                for (String address : self.node().addresses()) {
                    add(ranges, address, dst.ports());
                }
            }
            for (Target.Literal literal : target.literals()) {
                if (concerns(rule, literal, self)) {
                    add(ranges, literal.text(), dst.ports());
                }
            }
            if (target.internet() && self.exitNode() && rule.through(self)) {
                for (IpBlock block : TailnetRanges.INTERNET) {
                    add(ranges, block.formatRange(), dst.ports());
                }
            }
        }
        return ranges;
    }

    /** Capability destinations: the machine's own addresses, or the subnets it serves as written. */
    private List<IpPrefix> capabilityDestinations(AccessRule rule, NodeIndex.Entry self) {
        List<IpPrefix> dsts = new ArrayList<>();
        for (AccessRule.Destination dst : rule.dsts) {
            Target target = dst.target();
            if (target.wildcard() || target.nodes().get(self.index()) || target.addressed().get(self.index())) {
                for (String address : self.node().addresses()) {
                    IpPrefix prefix = IpPrefix.parse(address + (address.contains(":") ? "/128" : "/32"));
                    if (!dsts.contains(prefix)) {
                        dsts.add(prefix);
                    }
                }
            }
        }
        return dsts;
    }

    /** Whether a destination literal falls on the machine, on a subnet it serves, or on the internet it exits to. */
    private static boolean concerns(AccessRule rule, Target.Literal literal, NodeIndex.Entry self) {
        for (IpBlock address : self.addresses()) {
            if (literal.block().contains(address)) {
                return true;
            }
        }
        if (!rule.through(self)) {
            return false;
        }
        return AccessRule.servesAny(self, List.of(literal))
                || (self.exitNode() && TailnetRanges.inInternet(literal.block()));
    }

    /**
     * {@code autogroup:self}: the machine's own user's machines among the sources may reach it. A rule of its own,
     * because its sources are not the rule's sources; it comes after the rest of the same policy rule.
     */
    private void selfFragment(AccessRule rule, NodeIndex.Entry self, int r, Map<Key, Fragment> merged) {
        Optional<Key> key = selfKeys.computeIfAbsent(r, k -> new ConcurrentHashMap<>())
                .computeIfAbsent(self.user().id(), user -> selfKey(rule, r, user));
        if (key.isEmpty()) {
            return;
        }
        Fragment fragment = fragment(merged, key.get(), r, 1);
        if (rule.isCapability()) {
            List<IpPrefix> dsts = new ArrayList<>();
            for (String address : self.node().addresses()) {
                dsts.add(single(address));
            }
            fragment.grants.add(new CapGrant(dsts, null, rule.capMap));
            return;
        }
        for (AccessRule.Destination dst : rule.dsts) {
            if (dst.target().self()) {
                for (String address : self.node().addresses()) {
                    add(fragment.ports, address, dst.ports());
                }
            }
        }
    }

    /** The sources of a self rule for one user (the same for all of the user's machines), or empty for none. */
    private Optional<Key> selfKey(AccessRule rule, int r, long user) {
        BitSet sameUser = (BitSet) index.ofUser(user).clone();
        sameUser.and(rule.srcMachines);
        if (sameUser.isEmpty()) {
            return Optional.empty();
        }
        TreeSet<String> sources = new TreeSet<>();
        for (int i = sameUser.nextSetBit(0); i >= 0; i = sameUser.nextSetBit(i + 1)) {
            sources.addAll(index.entry(i).node().addresses());
        }
        List<String> srcIps = List.copyOf(sources);
        return Optional.of(rule.isCapability() ? new Key(srcIps, List.of(r), true) : key(rule, srcIps));
    }

    private static IpPrefix single(String address) {
        return IpPrefix.parse(address + (address.contains(":") ? "/128" : "/32"));
    }

    private static void add(List<NetPortRange> ranges, String ip, List<PortRange> ports) {
        for (PortRange port : ports) {
            ranges.add(new NetPortRange(ip, null, port));
        }
    }
}
