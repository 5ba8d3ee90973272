package io.meshcontrol.core.policy;

import java.util.ArrayDeque;
import java.util.Collections;
import java.util.Deque;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A parsed, validated policy file. The text the user saved is kept verbatim; the sections are parsed once, so
 * compiling it against the network never fails.
 *
 * @param text as saved, comments and all
 * @param groups group name ({@code group:x}) to member logins
 * @param tagOwners tag to its owners: logins, groups, other tags, or autogroups
 * @param hosts names usable in rules, to an IP address or prefix
 * @param autoApprovers who may have routes approved without an administrator (applied by {@link AutoApproval})
 * @param acls access rules, or null when the policy has no {@code acls} section
 * @param grants grants, or null when the policy has no {@code grants} section; with neither section everything is
 *     allowed (as for a network that never saved a policy), while an empty list allows nothing
 * @param randomizeClientPort the top-level switch that gives every node {@code randomize-client-port}
 * @param postures {@code postures}: posture name to its conditions
 * @param defaultSrcPosture postures a source must satisfy (one of them) in rules without their own
 *     {@code srcPosture}; empty for none
 */
public record Policy(String text, Map<String, List<String>> groups, Map<String, List<String>> tagOwners,
        Map<String, String> hosts, AutoApprovers autoApprovers, List<AclRule> acls, List<Grant> grants,
        List<SshRule> ssh, List<NodeAttr> nodeAttrs, List<PolicyTest> tests, List<SshTest> sshTests,
        boolean randomizeClientPort, Map<String, DevicePosture> postures, List<String> defaultSrcPosture) {

    /** The policy in force before anyone saves one: no tags are defined, everything is allowed. */
    public static final Policy EMPTY = parse("{}\n");

    /** A tag name: {@code tag:} and letters, digits and dashes, starting with a letter. */
    public static final Pattern TAG = Pattern.compile("tag:[A-Za-z][A-Za-z0-9-]*");

    public Policy {
        groups = ordered(groups);
        tagOwners = ordered(tagOwners);
        hosts = ordered(hosts);
        acls = acls == null ? null : List.copyOf(acls);
        grants = grants == null ? null : List.copyOf(grants);
        ssh = List.copyOf(ssh);
        nodeAttrs = List.copyOf(nodeAttrs);
        tests = List.copyOf(tests);
        sshTests = List.copyOf(sshTests);
        postures = ordered(postures);
        defaultSrcPosture = List.copyOf(defaultSrcPosture);
    }

    /** The postures a rule's sources must satisfy (one of them): its own, else the default; empty for none. */
    List<DevicePosture> srcPostures(List<String> ruleSrcPosture) {
        List<String> names = ruleSrcPosture.isEmpty() ? defaultSrcPosture : ruleSrcPosture;
        return names.stream().map(postures::get).toList();
    }

    /**
     * Parses and validates everything that does not depend on the network's users and machines; a bad policy is
     * refused as a whole, with the vendor's error text where there is one.
     */
    public static Policy parse(String text) {
        try {
            return PolicyParser.parse(text);
        } catch (PolicyException e) {
            throw e.located(text);
        }
    }

    /** Whether the policy has neither {@code acls} nor {@code grants}: then every machine may reach every other. */
    public boolean allowsEverything() {
        return acls == null && grants == null;
    }

    public boolean definesTag(String tag) {
        return tagOwners.containsKey(tag);
    }

    /**
     * Whether a user may put {@code tag} on a machine: listed directly (by any of its {@code logins}, such as
     * name and e-mail), through a group, or through {@code autogroup:admin}/{@code autogroup:member}.
     */
    public boolean userOwns(Set<String> logins, boolean admin, String tag) {
        for (String owner : tagOwners.getOrDefault(tag, List.of())) {
            if (logins.contains(owner) || owner.equals("autogroup:member")
                    || (admin && owner.equals("autogroup:admin"))
                    || (owner.startsWith("group:")
                        && groups.getOrDefault(owner, List.of()).stream().anyMatch(logins::contains))) {
                return true;
            }
        }
        return false;
    }

    /** Whether holders of {@code held} tags may use {@code tag}: it is one of them, or one of them owns it (transitively). */
    public boolean tagsOwn(Set<String> held, String tag) {
        Set<String> seen = new HashSet<>();
        Deque<String> pending = new ArrayDeque<>(List.of(tag));
        while (!pending.isEmpty()) {
            String current = pending.pop();
            if (held.contains(current)) {
                return true;
            }
            if (seen.add(current)) {
                tagOwners.getOrDefault(current, List.of()).stream().filter(o -> o.startsWith("tag:")).forEach(pending::push);
            }
        }
        return false;
    }

    /**
     * This policy with {@code extra} members added to its groups (granted access requests); groups the policy does
     * not define are left out. The text stays the saved one. With nothing to add, this policy itself.
     */
    public Policy withGroupMembers(Map<String, List<String>> extra) {
        Map<String, List<String>> merged = new LinkedHashMap<>(groups);
        boolean added = false;
        for (Map.Entry<String, List<String>> entry : extra.entrySet()) {
            List<String> members = merged.get(entry.getKey());
            if (members == null) {
                continue;
            }
            List<String> more = new java.util.ArrayList<>(members);
            entry.getValue().stream().filter(login -> !more.contains(login)).forEach(more::add);
            if (more.size() > members.size()) {
                merged.put(entry.getKey(), List.copyOf(more));
                added = true;
            }
        }
        return !added ? this : new Policy(text, merged, tagOwners, hosts, autoApprovers, acls, grants, ssh, nodeAttrs,
                tests, sshTests, randomizeClientPort, postures, defaultSrcPosture);
    }

    private static <V> Map<String, V> ordered(Map<String, V> map) {
        return Collections.unmodifiableMap(new LinkedHashMap<>(map));
    }
}
