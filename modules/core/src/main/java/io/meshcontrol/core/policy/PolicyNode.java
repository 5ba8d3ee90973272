package io.meshcontrol.core.policy;

import java.util.List;

/**
 * A machine as the policy sees it: who it belongs to, its addresses and the routes it serves.
 *
 * @param name its name in the network (the DNS label)
 * @param userId the owner, or null for a tagged machine (which belongs to its tags)
 * @param approvedRoutes subnet and exit routes ({@code 0.0.0.0/0}, {@code ::/0}) an administrator or an
 *     auto-approver has approved for it; it gets the rules whose destinations fall in them
 * @param appConnector whether it runs the app connector: like an exit node it gets the rules that reach the
 *     internet, by which it decides whom to answer DNS queries for its apps' domains
 * @param facts what posture conditions ({@code srcPosture}) are evaluated against
 */
public record PolicyNode(long id, String name, String stableId, Long userId, List<String> tags, String ipv4,
        String ipv6, List<String> approvedRoutes, boolean appConnector, MachineFacts facts) {

    public PolicyNode {
        tags = List.copyOf(tags);
        approvedRoutes = List.copyOf(approvedRoutes);
        facts = facts == null ? MachineFacts.NONE : facts;
    }

    /** A machine nothing is known of for posture conditions. */
    public PolicyNode(long id, String name, String stableId, Long userId, List<String> tags, String ipv4,
            String ipv6, List<String> approvedRoutes, boolean appConnector) {
        this(id, name, stableId, userId, tags, ipv4, ipv6, approvedRoutes, appConnector, MachineFacts.NONE);
    }

    /** This machine with other facts. */
    public PolicyNode withFacts(MachineFacts facts) {
        return new PolicyNode(id, name, stableId, userId, tags, ipv4, ipv6, approvedRoutes, appConnector, facts);
    }

    /** A machine that does not run the app connector. */
    public PolicyNode(long id, String name, String stableId, Long userId, List<String> tags, String ipv4,
            String ipv6, List<String> approvedRoutes) {
        this(id, name, stableId, userId, tags, ipv4, ipv6, approvedRoutes, false, MachineFacts.NONE);
    }

    public boolean isTagged() {
        return !tags.isEmpty();
    }

    /** The node's own addresses, IPv4 first, as filters name them. */
    public List<String> addresses() {
        return ipv6 == null || ipv6.isEmpty() ? List.of(ipv4) : List.of(ipv4, ipv6);
    }
}
