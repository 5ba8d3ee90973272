package io.meshcontrol.core.policy;

import java.util.List;

/**
 * The {@code acls} rules and {@code grants} that apply to one user (as a source) or to one {@code ip:port} (as a
 * destination): the vendor's ACL preview. Rules are reported as written, sources and destinations each as their
 * text.
 *
 * @param matches the matching {@code acls} rules in policy order, then the matching grants in policy order
 */
public record PolicyPreview(List<Match> matches) {

    /**
     * One matching rule or grant.
     *
     * @param users its {@code src} entries
     * @param ports its destinations with their ports ({@code alias:ports}); a grant gives one per destination and
     *     {@code ip} entry
     * @param lineNumber the line of the policy text the entry starts on (1-based)
     * @param via a grant's {@code via} tags; empty for rules and for grants without
     */
    public record Match(List<String> users, List<String> ports, int lineNumber, List<String> via) {
        public Match {
            users = List.copyOf(users);
            ports = List.copyOf(ports);
            via = List.copyOf(via);
        }
    }

    public PolicyPreview {
        matches = List.copyOf(matches);
    }
}
