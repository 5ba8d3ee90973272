package io.meshcontrol.core.wire;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;
import tools.jackson.databind.annotation.JsonSerialize;

/**
 * One packet-filter rule: traffic from these sources to these destinations is allowed (or these peer capabilities are
 * granted). Go: {@code tailcfg.FilterRule}. {@code DstPorts} and {@code CapGrant} exclude each other.
 *
 * @param srcIps sources: an IP, a CIDR, a range "a-b", "*", or "cap:&lt;node capability&gt;" (capver 109); always
 *     written
 * @param srcBits deprecated prefix lengths for {@code srcIps}; absent when none
 * @param dstPorts destinations and ports allowed; absent for a capability grant
 * @param ipProto IP protocol numbers allowed; absent means TCP, UDP and ICMP
 * @param capGrant peer capabilities granted to the sources towards these destinations; absent for a port rule
 */
public record FilterRule(
        @JsonProperty("SrcIPs") @JsonSerialize(using = SourceListJson.class) List<String> srcIps,
        @JsonProperty("SrcBits") @OmitEmpty List<Integer> srcBits,
        @JsonProperty("DstPorts") @OmitEmpty List<NetPortRange> dstPorts,
        @JsonProperty("IPProto") @OmitEmpty List<Integer> ipProto,
        @JsonProperty("CapGrant") @OmitEmpty List<CapGrant> capGrant) {

    /** The rule that allows everything from everywhere, Go's {@code tailcfg.FilterAllowAll}. */
    public static final FilterRule ALLOW_ALL = allow(List.of("*"), List.of(NetPortRange.any("*")));

    public FilterRule {
        srcIps = Copies.list(srcIps);
        srcBits = Copies.orEmpty(srcBits);
        dstPorts = Copies.orEmpty(dstPorts);
        ipProto = Copies.orEmpty(ipProto);
        capGrant = Copies.orEmpty(capGrant);
    }

    /** A port rule for the default protocols (TCP, UDP, ICMP). */
    public static FilterRule allow(List<String> srcIps, List<NetPortRange> dstPorts) {
        return new FilterRule(srcIps, null, dstPorts, null, null);
    }

    /** A capability grant. */
    public static FilterRule grant(List<String> srcIps, List<CapGrant> capGrant) {
        return new FilterRule(srcIps, null, null, null, capGrant);
    }
}
