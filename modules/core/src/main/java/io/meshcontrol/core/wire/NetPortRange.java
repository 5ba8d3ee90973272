package io.meshcontrol.core.wire;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * A destination of a filter rule: addresses and a port range. Go: {@code tailcfg.NetPortRange}.
 *
 * @param ip an IP, a CIDR, a range "a-b" or "*"; always written
 * @param bits deprecated prefix length for {@code ip}; absent normally
 * @param ports the port range; always written
 */
public record NetPortRange(
        @JsonProperty("IP") String ip,
        @JsonProperty("Bits") @OmitNull Integer bits,
        @JsonProperty("Ports") PortRange ports) {

    public NetPortRange {
        ip = Copies.text(ip);
        ports = ports == null ? new PortRange(0, 0) : ports;
    }

    /** All ports of {@code ip}. */
    public static NetPortRange any(String ip) {
        return new NetPortRange(ip, null, PortRange.ANY);
    }
}
