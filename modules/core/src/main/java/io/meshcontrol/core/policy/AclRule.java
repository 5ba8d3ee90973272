package io.meshcontrol.core.policy;

import io.meshcontrol.core.wire.PortRange;
import java.util.List;

/**
 * One {@code acls} entry: the sources may reach each destination on its ports.
 *
 * @param protocols from {@code proto}; empty means TCP, UDP and ICMP
 * @param srcPosture postures of which a source must satisfy one; empty for the policy's default
 */
public record AclRule(List<Alias> src, List<Destination> dst, List<Integer> protocols, List<String> srcPosture) {

    /** A destination with its ports, {@code tag:web:80,443}. */
    public record Destination(Alias alias, List<PortRange> ports) {
        public Destination {
            ports = List.copyOf(ports);
        }
    }

    public AclRule {
        src = List.copyOf(src);
        dst = List.copyOf(dst);
        protocols = List.copyOf(protocols);
        srcPosture = List.copyOf(srcPosture);
    }
}
