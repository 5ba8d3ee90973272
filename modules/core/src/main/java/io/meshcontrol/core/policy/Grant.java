package io.meshcontrol.core.policy;

import io.meshcontrol.core.wire.PortRange;
import io.meshcontrol.core.wire.RawJson;
import java.util.List;
import java.util.Map;

/**
 * One {@code grants} entry: network access ({@code ip}) and/or application capabilities ({@code app}) from the
 * sources to the destinations, optionally only through routers carrying a {@code via} tag.
 *
 * @param ip what network traffic is allowed, in the order written; empty when the grant gives only capabilities
 * @param via tags of the routers (subnet routers, exit nodes) the grant applies through; empty for any
 * @param app capability name to its values, for {@code CapGrant}; empty for none
 * @param srcPosture postures of which a source must satisfy one; empty for the policy's default
 */
public record Grant(List<Alias> src, List<Alias> dst, List<IpSpec> ip, List<String> via,
        Map<String, List<RawJson>> app, List<String> srcPosture) {

    /** One {@code ip} entry: {@code *}, {@code 22}, {@code tcp:443}, {@code udp:1000-2000}, {@code icmp:*}. */
    public record IpSpec(List<Integer> protocols, List<PortRange> ports) {
        public IpSpec {
            protocols = List.copyOf(protocols);
            ports = List.copyOf(ports);
        }
    }

    public Grant {
        src = List.copyOf(src);
        dst = List.copyOf(dst);
        ip = List.copyOf(ip);
        via = List.copyOf(via);
        app = Map.copyOf(app);
        srcPosture = List.copyOf(srcPosture);
    }
}
