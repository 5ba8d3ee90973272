package io.meshcontrol.core.policy;

import io.meshcontrol.core.net.IpBlock;
import io.meshcontrol.core.net.IpPrefix;
import io.meshcontrol.core.routes.RoutePrefixes;
import java.util.Collection;
import java.util.List;
import java.util.TreeSet;

/**
 * The policy's {@code autoApprovers} applied to one machine: which of its advertised routes are approved without an
 * administrator. The section is the one the parser built ({@link Policy#autoApprovers()}), and an approver covers
 * the machines the same alias covers as a rule's source, resolved by the {@link AliasResolver} the compiled rules
 * use: a tag covers the machines carrying it; a user, group, {@code user:*@domain} or user autogroup
 * ({@code autogroup:member}, {@code autogroup:admin}, ...) covers those users' own (untagged) machines; an address
 * or host covers the machine whose own address lies in it. A route is approved when it lies inside (or equals) a listed prefix whose
 * approvers cover the machine; exit routes only through {@code exitNode}, never through a {@code /0} entry of
 * {@code routes}.
 */
public final class AutoApproval {

    /** The machine is the only one of its inventory, so it is machine 0 of the index. */
    private static final int MACHINE = 0;

    private final AutoApprovers approvers;
    private final AliasResolver resolver;

    private AutoApproval(Policy policy, PolicyInventory machine) {
        this.approvers = policy.autoApprovers();
        this.resolver = new AliasResolver(policy, new NodeIndex(machine));
    }

    /**
     * @param owner the machine's user; null for a tagged machine, which its tags alone cover
     */
    public static AutoApproval of(Policy policy, PolicyNode node, PolicyUser owner) {
        return new AutoApproval(policy, new PolicyInventory(owner == null ? List.of() : List.of(owner), List.of(node)));
    }

    /** Whether the subnet route {@code route} may be approved: it lies inside a listed prefix that covers the machine. */
    public boolean approvesRoute(IpPrefix route) {
        IpBlock block = IpBlock.of(route);
        return approvers.routes().values().stream()
                .anyMatch(entry -> entry.prefix().contains(block) && covers(entry.approvers()));
    }

    /** Whether the machine may be an exit node without an administrator. */
    public boolean approvesExitNode() {
        return covers(approvers.exitNode());
    }

    /**
     * The machine's approved routes after auto-approval: what was approved stays (auto-approval never withdraws an
     * approval), and each advertised route the approvers allow is added. An allowed exit route brings its pair.
     */
    public List<IpPrefix> approve(Collection<IpPrefix> advertised, Collection<IpPrefix> approved) {
        TreeSet<IpPrefix> result = new TreeSet<>(RoutePrefixes.ORDER);
        result.addAll(approved);
        for (IpPrefix route : advertised) {
            if (!result.contains(route)
                    && (RoutePrefixes.isExit(route) ? approvesExitNode() : approvesRoute(route))) {
                result.add(route);
            }
        }
        return RoutePrefixes.withExitPair(result);
    }

    private boolean covers(List<Alias> aliases) {
        return !aliases.isEmpty() && resolver.resolve(aliases).machines(1).get(MACHINE);
    }
}
