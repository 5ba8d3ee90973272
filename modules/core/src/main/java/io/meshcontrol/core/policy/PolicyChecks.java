package io.meshcontrol.core.policy;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The checks that need the network's users: domains in {@code user:*@domain} and {@code localpart:*@domain}, and
 * the policy's own {@code tests} and {@code sshTests}. Run before a policy is saved; a failure refuses it.
 */
public final class PolicyChecks {

    private PolicyChecks() {
    }

    /**
     * @throws PolicyException in the vendor's words: a domain no user of the network has, or {@code test(s) failed}
     *     followed by the failing cases
     */
    public static void check(Policy policy, PolicyInventory inventory) {
        checkDomains(policy, inventory);
        List<PolicyTestFailure> failed = failedTests(policy, inventory);
        List<String> failures = failed.stream().flatMap(f -> f.errors().stream()).toList();
        if (!failures.isEmpty()) {
            // placed at the first failing test's src
            String source = failed.getFirst().source();
            boolean inTests = policy.tests().stream().anyMatch(test -> test.src().equals(source));
            throw new PolicyException("test(s) failed: " + String.join("; ", failures))
                    .about(source, inTests ? "tests" : "sshTests").located(policy.text());
        }
    }

    /**
     * The vendor's ACL preview: {@code type} {@code user} gives the {@code acls} rules and {@code grants} whose
     * sources cover {@code previewFor}, {@code ipport} those whose destinations cover {@code previewFor}
     * ({@code address:port}); rules first, then grants, each in policy order with the line it starts on.
     *
     * @throws PolicyException naming what is wrong with {@code type} or {@code previewFor}
     */
    public static PolicyPreview preview(Policy policy, PolicyInventory inventory, String type, String previewFor) {
        PolicyTestRunner runner = new PolicyTestRunner(policy, inventory);
        List<Integer> acls;
        List<Integer> grants;
        switch (type) {
            case "user" -> {
                acls = runner.aclsFrom(previewFor);
                grants = runner.grantsFrom(previewFor);
            }
            case "ipport" -> {
                int colon = previewFor.lastIndexOf(':');
                int port;
                try {
                    port = Integer.parseInt(previewFor.substring(colon + 1));
                } catch (NumberFormatException e) {
                    throw new PolicyException("previewFor \"" + previewFor + "\": want an address and a port, ip:port");
                }
                if (colon <= 0 || port < 0 || port > 65535) {
                    throw new PolicyException("previewFor \"" + previewFor + "\": want an address and a port, ip:port");
                }
                String address = previewFor.substring(0, colon);
                if (address.startsWith("[") && address.endsWith("]")) {
                    address = address.substring(1, address.length() - 1);
                }
                acls = runner.aclsTo(address, port);
                grants = runner.grantsTo(address, port);
            }
            default -> throw new PolicyException("type \"" + type + "\": want user or ipport");
        }
        List<PolicyPreview.Match> matches = new ArrayList<>();
        List<Integer> aclLines = PolicyLines.of(policy.text(), "acls");
        for (int i : acls) {
            AclRule rule = policy.acls().get(i);
            matches.add(new PolicyPreview.Match(rule.src().stream().map(Alias::text).toList(),
                    rule.dst().stream().map(dst -> dst.alias().text() + ":" + Ports.text(dst.ports())).toList(),
                    line(aclLines, i), List.of()));
        }
        List<Integer> grantLines = PolicyLines.of(policy.text(), "grants");
        for (int i : grants) {
            Grant grant = policy.grants().get(i);
            List<String> ports = new ArrayList<>();
            for (Alias dst : grant.dst()) {
                grant.ip().forEach(spec -> ports.add(dst.text() + ":" + Ports.text(spec.ports())));
            }
            matches.add(new PolicyPreview.Match(grant.src().stream().map(Alias::text).toList(), ports,
                    line(grantLines, i), grant.via()));
        }
        return new PolicyPreview(matches);
    }

    private static int line(List<Integer> lines, int position) {
        return position < lines.size() ? lines.get(position) : 0;
    }

    /** The policy's {@code tests} and {@code sshTests} that fail, grouped by their source (the vendor's shape). */
    public static List<PolicyTestFailure> failedTests(Policy policy, PolicyInventory inventory) {
        Map<String, List<String>> bySource = new LinkedHashMap<>();
        PolicyTestRunner runner = new PolicyTestRunner(policy, inventory);
        policy.tests().forEach(test -> add(bySource, test.src(), runner.run(test)));
        policy.sshTests().forEach(test -> add(bySource, test.src(), runner.run(test)));
        List<PolicyTestFailure> failures = new ArrayList<>();
        bySource.forEach((source, errors) -> failures.add(new PolicyTestFailure(source, errors)));
        return failures;
    }

    private static void add(Map<String, List<String>> bySource, String source, List<String> errors) {
        if (!errors.isEmpty()) {
            bySource.computeIfAbsent(source, s -> new ArrayList<>()).addAll(errors);
        }
    }

    /**
     * The domains the network is associated with: its owner's, as the vendor's network belongs to its owner's
     * domain and guests from other domains do not widen it. Without an owner, every user's domain.
     */
    static Set<String> domains(PolicyInventory inventory) {
        Set<String> owners = new TreeSet<>();
        Set<String> all = new TreeSet<>();
        for (PolicyUser user : inventory.users()) {
            if (!user.domain().isEmpty()) {
                all.add(user.domain());
                if (user.role() == io.meshcontrol.core.model.Role.OWNER) {
                    owners.add(user.domain());
                }
            }
        }
        return owners.isEmpty() ? all : owners;
    }

    /** @throws PolicyException naming a domain of {@code user:*@domain} no user of the network has */
    public static void checkDomains(Policy policy, PolicyInventory inventory) {
        try {
            checkDomains(policy, domains(inventory));
        } catch (PolicyException e) {
            throw e.located(policy.text());
        }
    }

    private static void checkDomains(Policy policy, Set<String> domains) {
        List<List<Alias>> sources = new ArrayList<>();
        if (policy.acls() != null) {
            policy.acls().forEach(acl -> sources.add(acl.src()));
        }
        if (policy.grants() != null) {
            policy.grants().forEach(grant -> sources.add(grant.src()));
        }
        for (List<Alias> src : sources) {
            for (Alias alias : src) {
                if (alias instanceof Alias.Domain(String domain) && !domains.contains(domain)) {
                    throw notAssociated("", domain, "user:*@" + domain);
                }
            }
        }
        for (SshRule rule : policy.ssh()) {
            for (Alias alias : rule.src()) {
                if (alias instanceof Alias.Domain(String domain) && !domains.contains(domain)) {
                    throw notAssociated("[ssh] ", domain, "user:*@" + domain);
                }
            }
            for (String user : rule.users()) {
                if (SshPolicies.isLocalPart(user)) {
                    String domain = user.substring(SshPolicies.LOCALPART.length());
                    if (!domains.contains(domain)) {
                        throw notAssociated("", domain, user);
                    }
                }
            }
        }
    }

    private static PolicyException notAssociated(String prefix, String domain, String subject) {
        return new PolicyException(prefix + domain
                + " is not associated with this Tailnet and cannot be used in user:*@<domain> expressions", subject);
    }
}
