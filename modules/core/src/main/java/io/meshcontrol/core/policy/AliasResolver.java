package io.meshcontrol.core.policy;

import io.meshcontrol.core.net.IpBlock;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Resolves aliases to the machines they cover, once per alias per compilation (a policy names the same group or
 * tag in many rules). Unknown users resolve to nothing: a policy may name people who have not joined yet.
 */
final class AliasResolver {

    private final Policy policy;
    private final NodeIndex index;
    private final Map<String, Target> resolved = new HashMap<>();

    AliasResolver(Policy policy, NodeIndex index) {
        this.policy = policy;
        this.index = index;
    }

    Target resolve(List<Alias> aliases) {
        if (aliases.size() == 1) {
            return resolve(aliases.getFirst());
        }
        return Target.union(aliases.stream().map(this::resolve).toList());
    }

    Target resolve(Alias alias) {
        return resolved.computeIfAbsent(alias.text(), text -> compute(alias));
    }


    private Target compute(Alias alias) {
        return switch (alias) {
            case Alias.Wildcard w -> new Target(new BitSet(), new BitSet(), List.of(), true, false, false, false);
            case Alias.User user -> nodes(usersNodes(List.of(user.login())));
            case Alias.Group group -> nodes(usersNodes(policy.groups().getOrDefault(group.name(), List.of())));
            case Alias.Domain domain -> {
                BitSet nodes = new BitSet();
                for (PolicyUser user : index.users()) {
                    if (user.domain().equalsIgnoreCase(domain.domain())) {
                        nodes.or(index.ofUser(user.id()));
                    }
                }
                yield nodes(nodes);
            }
            case Alias.Tag tag -> nodes(index.withTag(tag.name()));
            case Alias.Host host -> literal(host.name(), policy.hosts().get(host.name()));
            case Alias.Address address -> literal(address.text(), address.text());
            case Alias.Auto(AutoGroup group) -> autoGroup(group);
        };
    }

    private Target autoGroup(AutoGroup group) {
        return switch (group) {
            case MEMBER -> nodes(index.untagged());
            case TAGGED -> nodes(index.tagged());
            case SELF -> new Target(new BitSet(), new BitSet(), List.of(), false, false, false, true);
            case INTERNET -> new Target(new BitSet(), new BitSet(), List.of(), false, false, true, false);
            case DANGER_ALL -> new Target(new BitSet(), new BitSet(), List.of(), true, true, false, false);
            case SHARED, NONROOT -> Target.NOTHING;
            default -> {
                BitSet nodes = new BitSet();
                for (PolicyUser user : index.users()) {
                    if (user.role() != null && group.includes(user.role())) {
                        nodes.or(index.ofUser(user.id()));
                    }
                }
                yield nodes(nodes);
            }
        };
    }

    private BitSet usersNodes(List<String> logins) {
        BitSet nodes = new BitSet();
        for (String login : logins) {
            PolicyUser user = index.userByLogin(login);
            if (user != null) {
                nodes.or(index.ofUser(user.id()));
            }
        }
        return nodes;
    }

    /** An address or prefix: the literal itself, and the machines whose own addresses it contains. */
    private Target literal(String name, String text) {
        IpBlock block = IpBlock.parse(text);
        BitSet inside = new BitSet();
        for (int i = 0; i < index.size(); i++) {
            for (IpBlock address : index.entry(i).addresses()) {
                if (block.contains(address)) {
                    inside.set(i);
                }
            }
        }
        return new Target(new BitSet(), inside, List.of(new Target.Literal(written(text), block)), false, false, false,
                false);
    }

    /** A single-address prefix ({@code /32}, {@code /128}) is written as the address, as the vendor writes it. */
    private static String written(String text) {
        int slash = text.indexOf('/');
        if (slash > 0) {
            String address = text.substring(0, slash);
            String bits = text.substring(slash + 1);
            if ((bits.equals("32") && !address.contains(":")) || (bits.equals("128") && address.contains(":"))) {
                return address;
            }
        }
        return text;
    }

    private static Target nodes(BitSet nodes) {
        return new Target(nodes, new BitSet(), List.of(), false, false, false, false);
    }
}
