package io.meshcontrol.core.policy;

import io.meshcontrol.core.model.Role;
import io.meshcontrol.core.net.IpBlock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Runs {@code tests} and {@code sshTests} entries against the rules, by identity: a test's source and destination
 * are users, tags or addresses, and a rule matches when its aliases cover them. So a test says the same whether or
 * not the named user has a machine yet. Each failure is one readable line.
 */
final class PolicyTestRunner {

    /** Who a test's source or destination stands for. */
    private record Principal(String name, PolicyUser user, List<String> tags, List<IpBlock> addresses) {
        boolean isUser() {
            return user != null && tags.isEmpty();
        }
    }

    private enum SshResult { ACCEPT, CHECK, DENY }

    private static final IpBlock SOME_INTERNET_ADDRESS = IpBlock.parse("1.1.1.1");

    private final Policy policy;
    private final PolicyInventory inventory;

    PolicyTestRunner(Policy policy, PolicyInventory inventory) {
        this.policy = policy;
        this.inventory = inventory;
    }

    List<String> run(PolicyTest test) {
        List<String> failures = new ArrayList<>();
        List<Principal> sources;
        try {
            sources = principals(test.src(), null);
        } catch (PolicyException e) {
            return List.of("src \"" + test.src() + "\": " + e.getMessage());
        }
        if (test.accept().isEmpty() && test.deny().isEmpty()) {
            return List.of("src \"" + test.src() + "\": a test needs \"accept\" or \"deny\"");
        }
        int protocol;
        try {
            List<Integer> protocols = Protocols.parse(test.proto());
            protocol = protocols.isEmpty() ? Protocols.TCP : protocols.getFirst();
        } catch (PolicyException e) {
            return List.of("src \"" + test.src() + "\": " + e.getMessage());
        }
        for (String dst : test.accept()) {
            check(sources, dst, protocol, true).ifPresent(failures::add);
        }
        for (String dst : test.deny()) {
            check(sources, dst, protocol, false).ifPresent(failures::add);
        }
        return failures;
    }

    /** The positions of the {@code acls} rules whose sources cover {@code user} (a login, a group or a test source). */
    List<Integer> aclsFrom(String user) {
        List<Principal> sources = principals(user, null);
        return positions(acls(), rule -> sources.stream().anyMatch(src -> covers(rule.src(), src)));
    }

    /** The positions of the {@code grants} whose sources cover {@code user}. */
    List<Integer> grantsFrom(String user) {
        List<Principal> sources = principals(user, null);
        return positions(grants(), grant -> sources.stream().anyMatch(src -> covers(grant.src(), src)));
    }

    /** The positions of the {@code acls} rules with a destination that covers {@code address} on {@code port}. */
    List<Integer> aclsTo(String address, int port) {
        List<Principal> destinations = principals(address, null);
        return positions(acls(), rule -> rule.dst().stream().anyMatch(dst -> dst.ports().stream()
                .anyMatch(range -> range.first() <= port && port <= range.last())
                && destinations.stream().anyMatch(who -> covers(dst.alias(), who))));
    }

    /** The positions of the {@code grants} that open {@code port} to a destination covering {@code address}. */
    List<Integer> grantsTo(String address, int port) {
        List<Principal> destinations = principals(address, null);
        return positions(grants(), grant -> grant.ip().stream().anyMatch(spec -> spec.ports().stream()
                .anyMatch(range -> range.first() <= port && port <= range.last()))
                && grant.dst().stream().anyMatch(alias -> destinations.stream().anyMatch(who -> covers(alias, who))));
    }

    private static <T> List<Integer> positions(List<T> entries, java.util.function.Predicate<T> matches) {
        List<Integer> positions = new ArrayList<>();
        for (int i = 0; i < entries.size(); i++) {
            if (matches.test(entries.get(i))) {
                positions.add(i);
            }
        }
        return positions;
    }

    private List<Grant> grants() {
        return policy.grants() == null ? List.of() : policy.grants();
    }

    private List<AclRule> acls() {
        return policy.acls() == null ? List.of() : policy.acls();
    }

    List<String> run(SshTest test) {
        List<Principal> sources;
        try {
            sources = principals(test.src(), null);
        } catch (PolicyException e) {
            return List.of("ssh src \"" + test.src() + "\": " + e.getMessage());
        }
        if (test.accept().isEmpty() && test.check().isEmpty() && test.deny().isEmpty()) {
            return List.of("ssh src \"" + test.src() + "\": a test needs \"accept\", \"check\" or \"deny\"");
        }
        List<String> failures = new ArrayList<>();
        for (String dstText : test.dst()) {
            List<Principal> dsts;
            try {
                dsts = sshDestination(dstText);
            } catch (PolicyException e) {
                failures.add("ssh dst \"" + dstText + "\": " + e.getMessage());
                continue;
            }
            for (Principal src : sources) {
                for (Principal dst : dsts) {
                    expect(test.accept(), src, dst, "accept", failures);
                    expect(test.check(), src, dst, "check", failures);
                    expect(test.deny(), src, dst, "deny", failures);
                }
            }
        }
        return failures;
    }

    private void expect(List<String> users, Principal src, Principal dst, String want, List<String> failures) {
        for (String user : users) {
            SshResult got = user.isEmpty() ? SshResult.DENY : ssh(src, dst, user);
            boolean ok = want.equals("deny") ? got == SshResult.DENY : got != SshResult.DENY && !user.isEmpty();
            if (!ok) {
                failures.add("ssh " + src.name() + " -> " + dst.name() + " as \"" + user + "\": want " + want + ", got "
                        + got.name().toLowerCase(java.util.Locale.ROOT));
            }
        }
    }

    private Optional<String> check(List<Principal> sources, String dst, int protocol, boolean wantAccept) {
        int colon = dst.lastIndexOf(':');
        String what = (wantAccept ? "accept " : "deny ") + "\"" + dst + "\"";
        if (colon <= 0) {
            return Optional.of(what + ": want host:port");
        }
        String portText = dst.substring(colon + 1);
        if (portText.isEmpty() || portText.length() > 5 || !portText.chars().allMatch(Character::isDigit)
                || Integer.parseInt(portText) < 1 || Integer.parseInt(portText) > 65535) {
            return Optional.of(what + ": the port must be a single port");
        }
        int port = Integer.parseInt(portText);
        for (Principal src : sources) {
            List<Principal> targets;
            try {
                targets = principals(dst.substring(0, colon), src);
            } catch (PolicyException e) {
                return Optional.of(what + ": " + e.getMessage());
            }
            if (!singleHost(dst.substring(0, colon))) {
                return Optional.of(what + ": the destination must be a single host");
            }
            for (Principal target : targets) {
                if (allowed(src, target, port, protocol) != wantAccept) {
                    return Optional.of(what + " from " + src.name() + ": got " + (wantAccept ? "drop" : "accept"));
                }
            }
        }
        return Optional.empty();
    }

    /** Test destinations name one machine or address: no prefixes (not even /32), no internet. */
    private boolean singleHost(String text) {
        Alias alias = Alias.parse(text);
        return switch (alias) {
            case Alias.Address address -> !address.text().contains("/");
            case Alias.Host host -> !policy.hosts().get(host.name()).contains("/");
            case Alias.Auto(AutoGroup group) -> group != AutoGroup.INTERNET;
            default -> true;
        };
    }

    private boolean allowed(Principal src, Principal dst, int port, int protocol) {
        if (policy.allowsEverything()) {
            return true;
        }
        for (AclRule acl : policy.acls() == null ? List.<AclRule>of() : policy.acls()) {
            if (covers(acl.src(), src) && protocolAllowed(acl.protocols(), protocol)) {
                for (AclRule.Destination d : acl.dst()) {
                    if (d.ports().stream().anyMatch(p -> p.first() <= port && port <= p.last())
                            && coversDestination(d.alias(), src, dst)) {
                        return true;
                    }
                }
            }
        }
        for (Grant grant : policy.grants() == null ? List.<Grant>of() : policy.grants()) {
            if (!covers(grant.src(), src)) {
                continue;
            }
            boolean open = grant.ip().stream().anyMatch(spec -> protocolAllowed(spec.protocols(), protocol)
                    && spec.ports().stream().anyMatch(p -> p.first() <= port && port <= p.last()));
            if (open && grant.dst().stream().anyMatch(alias -> coversDestination(alias, src, dst))) {
                return true;
            }
        }
        return false;
    }

    private SshResult ssh(Principal src, Principal dst, String user) {
        for (SshRule rule : policy.ssh()) {
            if (!covers(rule.src(), src) || rule.dst().stream().noneMatch(alias -> coversDestination(alias, src, dst))) {
                continue;
            }
            if (maps(rule, src, user)) {
                return rule.check() ? SshResult.CHECK : SshResult.ACCEPT;
            }
        }
        return SshResult.DENY;
    }

    /** Whether the rule lets the source log in as {@code user} (as the client maps SSH users). */
    private static boolean maps(SshRule rule, Principal src, String user) {
        for (String listed : rule.users()) {
            if (listed.equals(user)) {
                return true;
            }
            if (listed.equals(AutoGroup.NONROOT.text()) && !user.equals("root")) {
                return true;
            }
            if (SshPolicies.isLocalPart(listed) && src.isUser()
                    && src.user().domain().equalsIgnoreCase(listed.substring(SshPolicies.LOCALPART.length()))
                    && src.user().email().substring(0, src.user().email().lastIndexOf('@')).equals(user)) {
                return true;
            }
        }
        return false;
    }

    private static boolean protocolAllowed(List<Integer> protocols, int protocol) {
        return protocols.isEmpty() ? protocol == Protocols.TCP || protocol == Protocols.UDP
                || protocol == Protocols.ICMP || protocol == Protocols.ICMPV6 : protocols.contains(protocol);
    }

    private boolean covers(List<Alias> aliases, Principal who) {
        return aliases.stream().anyMatch(alias -> covers(alias, who));
    }

    private boolean coversDestination(Alias alias, Principal src, Principal dst) {
        if (alias instanceof Alias.Auto(AutoGroup group) && group == AutoGroup.SELF) {
            return src.isUser() && dst.isUser() && src.user().id() == dst.user().id();
        }
        return covers(alias, dst);
    }

    private boolean covers(Alias alias, Principal who) {
        return switch (alias) {
            case Alias.Wildcard w -> !who.addresses().contains(SOME_INTERNET_ADDRESS);
            case Alias.User user -> who.isUser() && who.user().logins().contains(user.login());
            case Alias.Group group -> who.isUser() && policy.groups().getOrDefault(group.name(), List.of()).stream()
                    .anyMatch(who.user().logins()::contains);
            case Alias.Domain domain -> who.isUser() && who.user().domain().equalsIgnoreCase(domain.domain());
            case Alias.Tag tag -> who.tags().contains(tag.name());
            case Alias.Host host -> inside(IpBlock.parse(policy.hosts().get(host.name())), who);
            case Alias.Address address -> inside(address.block(), who);
            case Alias.Auto(AutoGroup group) -> switch (group) {
                case MEMBER -> who.isUser();
                case TAGGED -> !who.tags().isEmpty();
                case DANGER_ALL -> true;
                case INTERNET -> !who.addresses().isEmpty()
                        && who.addresses().stream().allMatch(TailnetRanges::inInternet);
                default -> who.isUser() && who.user().role() != null && group.includes(who.user().role());
            };
        };
    }

    private static boolean inside(IpBlock block, Principal who) {
        return who.addresses().stream().anyMatch(block::contains);
    }

    /**
     * What a test names: a user, a group's users, a tag, a host or an address (with the identity of the machine
     * that has it), {@code autogroup:self} (the source's user) or {@code autogroup:internet}.
     */
    private List<Principal> principals(String text, Principal source) {
        if (text.isEmpty()) {
            throw new PolicyException("empty");
        }
        Alias alias = Alias.parse(text);
        return switch (alias) {
            case Alias.User user -> List.of(user(text, inventory.users().stream()
                    .filter(u -> u.logins().contains(user.login())).findFirst()
                    .orElseThrow(() -> new PolicyException("user not found"))));
            case Alias.Group group -> {
                List<String> members = policy.groups().get(group.name());
                if (members == null) {
                    throw new PolicyException("group not found");
                }
                List<Principal> users = inventory.users().stream()
                        .filter(u -> members.stream().anyMatch(u.logins()::contains)).map(u -> user(u.login(), u))
                        .toList();
                if (users.isEmpty()) {
                    throw new PolicyException("group has no users");
                }
                yield users;
            }
            case Alias.Tag tag -> {
                if (!policy.definesTag(tag.name())) {
                    throw new PolicyException("tag not found");
                }
                List<IpBlock> addresses = new ArrayList<>();
                inventory.nodes().stream().filter(n -> n.tags().contains(tag.name()))
                        .forEach(n -> n.addresses().forEach(a -> addresses.add(IpBlock.parse(a))));
                yield List.of(new Principal(text, null, List.of(tag.name()), addresses));
            }
            case Alias.Host host -> {
                String address = policy.hosts().get(host.name());
                if (address == null) {
                    throw new PolicyException("host not found");
                }
                yield List.of(address(text, IpBlock.parse(address)));
            }
            case Alias.Address address -> List.of(address(text, address.block()));
            case Alias.Auto(AutoGroup group) when group == AutoGroup.SELF && source != null && source.isUser() ->
                    List.of(source);
            case Alias.Auto(AutoGroup group) when group == AutoGroup.INTERNET ->
                    List.of(new Principal(text, null, List.of(), List.of(SOME_INTERNET_ADDRESS)));
            case Alias.Auto(AutoGroup group) when group == AutoGroup.MEMBER -> List.of(new Principal(text,
                    new PolicyUser(-1, "", "", Role.MEMBER), List.of(), List.of()));
            default -> throw new PolicyException("not a user, group, tag, host or address");
        };
    }

    /** An SSH test destination: a machine by tag, user, host name or IPv4 address. */
    private List<Principal> sshDestination(String text) {
        Alias alias = Alias.parse(text);
        if (alias instanceof Alias.Address address && address.block().v6()) {
            throw new PolicyException("not a machine");
        }
        return principals(text, null);
    }

    private Principal user(String name, PolicyUser user) {
        List<IpBlock> addresses = new ArrayList<>();
        inventory.nodes().stream().filter(n -> !n.isTagged() && n.userId() != null && n.userId() == user.id())
                .forEach(n -> n.addresses().forEach(a -> addresses.add(IpBlock.parse(a))));
        return new Principal(name, user, List.of(), addresses);
    }

    /** An address, with the identity of the machine that has it, if any. */
    private Principal address(String name, IpBlock block) {
        for (PolicyNode node : inventory.nodes()) {
            if (node.addresses().stream().anyMatch(a -> block.contains(IpBlock.parse(a)))) {
                PolicyUser owner = node.isTagged() ? null : inventory.users().stream()
                        .filter(u -> node.userId() != null && u.id() == node.userId()).findFirst().orElse(null);
                return new Principal(name, owner, node.tags(), List.of(block));
            }
        }
        return new Principal(name, null, List.of(), List.of(block));
    }
}
