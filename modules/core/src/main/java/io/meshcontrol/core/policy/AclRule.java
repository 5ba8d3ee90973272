package io.meshcontrol.core.policy;

import java.util.List;

/**
 * One {@code acls} entry: {@code src} aliases may reach {@code dst} entries ({@code alias:ports}).
 *
 * @param proto protocol names or numbers; empty means TCP, UDP and ICMP
 */
public record AclRule(String action, List<String> src, List<String> dst, List<String> proto) {

    public AclRule {
        src = List.copyOf(src);
        dst = List.copyOf(dst);
        proto = List.copyOf(proto);
    }
}
