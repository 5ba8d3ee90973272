package io.meshcontrol.core.policy;

import java.util.BitSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * Who sees whom: two machines are peers when either may reach the other (by any rule, capability rules included),
 * counting a router as reachable through the subnets it serves and an exit node through the internet.
 *
 * <p>Scale: machines that take the same part in every rule (same rules as source, same rules as destination) have
 * the same peers, and in a real network there are few such classes, so the union over rules is computed once per
 * class, not per machine and never per pair. A pair question is then one bit test.
 */
final class Visibility {

    /** The rules a machine is a source of and a destination of. */
    private record Signature(BitSet asSource, BitSet asDestination) {
    }

    private final List<AccessRule> rules;
    private final NodeIndex index;
    private final AtomicReferenceArray<Signature> signatures;
    private final AtomicReferenceArray<BitSet> peers;
    private final Map<Signature, BitSet> unions = new ConcurrentHashMap<>();
    private final List<AccessRule> selfRules;

    Visibility(List<AccessRule> rules, NodeIndex index) {
        this.rules = rules;
        this.index = index;
        this.signatures = new AtomicReferenceArray<>(index.size());
        this.peers = new AtomicReferenceArray<>(index.size());
        this.selfRules = rules.stream().filter(rule -> rule.self).toList();
    }

    /** The machines {@code node} sees (never itself); not to be modified. */
    BitSet peers(int node) {
        BitSet known = peers.get(node);
        if (known != null) {
            return known;
        }
        BitSet result = (BitSet) unions.computeIfAbsent(signature(node), this::union).clone();
        addSameUser(node, result);
        result.clear(node);
        peers.set(node, result); // a benign race: every thread computes the same set
        return result;
    }

    private Signature signature(int node) {
        Signature known = signatures.get(node);
        if (known != null) {
            return known;
        }
        BitSet asSource = new BitSet(rules.size());
        BitSet asDestination = new BitSet(rules.size());
        for (int r = 0; r < rules.size(); r++) {
            AccessRule rule = rules.get(r);
            if (rule.srcMembers.get(node)) {
                asSource.set(r);
            }
            if (rule.dstTargets.get(node)) {
                asDestination.set(r);
            }
        }
        Signature signature = new Signature(asSource, asDestination);
        signatures.set(node, signature);
        return signature;
    }

    private BitSet union(Signature signature) {
        BitSet union = new BitSet(index.size());
        for (int r = signature.asSource().nextSetBit(0); r >= 0; r = signature.asSource().nextSetBit(r + 1)) {
            union.or(rules.get(r).dstTargets);
        }
        for (int r = signature.asDestination().nextSetBit(0); r >= 0;
                r = signature.asDestination().nextSetBit(r + 1)) {
            union.or(rules.get(r).srcMembers);
        }
        return union;
    }

    /** {@code autogroup:self}: a user's machines see each other when one of them is a source of such a rule. */
    private void addSameUser(int node, BitSet result) {
        NodeIndex.Entry entry = index.entry(node);
        if (entry.user() == null) {
            return;
        }
        BitSet own = index.ofUser(entry.user().id());
        for (AccessRule rule : selfRules) {
            BitSet sources = rule.srcMachines;
            if (sources.get(node)) {
                result.or(own);
            } else {
                BitSet reaching = (BitSet) own.clone();
                reaching.and(sources);
                result.or(reaching);
            }
        }
    }
}
