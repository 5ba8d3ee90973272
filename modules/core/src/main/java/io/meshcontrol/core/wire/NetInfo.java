package io.meshcontrol.core.wire;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Map;

/**
 * The client's view of its network, in {@code Hostinfo.NetInfo}. Go: {@code tailcfg.NetInfo}; every field is left out
 * when empty, and the {@code opt.Bool} fields ({@link Boolean}) absent mean "not measured".
 *
 * @param mappingVariesByDestIp whether the NAT maps differently per destination (hard NAT)
 * @param workingIpv6 whether IPv6 works
 * @param osHasIpv6 whether the OS has IPv6 at all
 * @param workingUdp whether UDP works
 * @param workingIcmpv4 whether ICMPv4 works
 * @param havePortMap whether a port mapping is active
 * @param upnp whether UPnP was found
 * @param pmp whether NAT-PMP was found
 * @param pcp whether PCP was found
 * @param preferredDerp the client's home DERP region; the server passes it to peers as {@code Node.HomeDERP}
 * @param linkType "wired", "wifi" or "mobile"
 * @param derpLatency seconds to each region, keyed "{@code <region>-v4}" or "{@code <region>-v6}"
 * @param firewallMode the Linux firewall mode ("ipt-default", "nft-forced" ...)
 */
public record NetInfo(
        @JsonProperty("MappingVariesByDestIP") @OmitNull Boolean mappingVariesByDestIp,
        @JsonProperty("WorkingIPv6") @OmitNull Boolean workingIpv6,
        @JsonProperty("OSHasIPv6") @OmitNull Boolean osHasIpv6,
        @JsonProperty("WorkingUDP") @OmitNull Boolean workingUdp,
        @JsonProperty("WorkingICMPv4") @OmitNull Boolean workingIcmpv4,
        @JsonProperty("HavePortMap") @OmitEmpty boolean havePortMap,
        @JsonProperty("UPnP") @OmitNull Boolean upnp,
        @JsonProperty("PMP") @OmitNull Boolean pmp,
        @JsonProperty("PCP") @OmitNull Boolean pcp,
        @JsonProperty("PreferredDERP") @OmitEmpty int preferredDerp,
        @JsonProperty("LinkType") @OmitEmpty String linkType,
        @JsonProperty("DERPLatency") @OmitEmpty Map<String, Double> derpLatency,
        @JsonProperty("FirewallMode") @OmitEmpty String firewallMode) {

    public NetInfo {
        linkType = Copies.text(linkType);
        derpLatency = Copies.orEmpty(derpLatency);
        firewallMode = Copies.text(firewallMode);
    }
}
