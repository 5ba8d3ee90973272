package io.meshcontrol.api;

import java.util.List;

/**
 * What a machine may reach under a policy ({@code POST /api/v1/policy/preview}).
 *
 * @param node the machine's node id
 * @param reach the machines it may reach, by node id, each with the rules of that machine's packet filter that let
 *     it in (port rules only); empty when it may reach none, or when it is not admitted (waiting for approval,
 *     suspended), since then it takes no part in the policy
 * @param rules the policy's {@code acls} rules and {@code grants} whose sources cover the machine (as the vendor's ACL
 *     preview reports them for a user), rules first, each in policy order
 */
public record PolicyPreview(String node, List<Reachable> reach, List<Rule> rules) {

    /** A machine that may be reached, with what of it. */
    public record Reachable(String id, String name, String ipv4, String ipv6, List<FilterRuleView> rules) {
    }

    /**
     * An {@code acls} rule or grant.
     *
     * @param sources its {@code src} entries as written
     * @param destinations its destinations with their ports ({@code alias:ports})
     * @param line the line of the policy text it starts on (1-based)
     * @param via a grant's {@code via} tags; empty otherwise
     */
    public record Rule(List<String> sources, List<String> destinations, int line, List<String> via) {
    }
}
