package io.meshcontrol.core.policy;

import io.meshcontrol.core.net.IpBlock;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;

/**
 * What one or more aliases cover on one network: machines by identity (their own addresses), address literals
 * (which may also fall on machines or on the routes they serve), and the special sets.
 *
 * @param nodes machines named by identity (user, group, tag, autogroup)
 * @param addressed machines whose own address one of the literals contains
 * @param literals addresses and prefixes written in the rule or taken from {@code hosts}, in order
 * @param wildcard {@code *}
 * @param dangerAll {@code autogroup:danger-all}: any address, even outside the network
 * @param internet {@code autogroup:internet}
 * @param self {@code autogroup:self}
 */
record Target(BitSet nodes, BitSet addressed, List<Literal> literals, boolean wildcard, boolean dangerAll, boolean internet,
        boolean self) {

    /** An address or prefix as written, with the block it covers. */
    record Literal(String text, IpBlock block) {
    }

    static final Target NOTHING = new Target(new BitSet(), new BitSet(), List.of(), false, false, false, false);

    static Target union(List<Target> targets) {
        BitSet nodes = new BitSet();
        BitSet addressed = new BitSet();
        List<Literal> literals = new ArrayList<>();
        boolean wildcard = false;
        boolean dangerAll = false;
        boolean internet = false;
        boolean self = false;
        for (Target target : targets) {
            nodes.or(target.nodes);
            addressed.or(target.addressed);
            target.literals.stream().filter(l -> !literals.contains(l)).forEach(literals::add);
            wildcard |= target.wildcard;
            dangerAll |= target.dangerAll;
            internet |= target.internet;
            self |= target.self;
        }
        return new Target(nodes, addressed, List.copyOf(literals), wildcard, dangerAll, internet, self);
    }

    /** The machines covered by identity or own address (not by served routes); everything for {@code *}. */
    BitSet machines(int size) {
        BitSet machines = (BitSet) nodes.clone();
        machines.or(addressed);
        if (wildcard) {
            machines.set(0, size);
        }
        return machines;
    }
}
