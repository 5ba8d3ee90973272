package io.meshcontrol.core.wire;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.meshcontrol.core.net.IpAddress;
import java.util.List;

/**
 * A DNS resolver. Go: {@code dnstype.Resolver}; every field is left out when empty.
 *
 * @param addr an IP (port 53), "ip:port", a DoH URL "https://...", or "http://node:port/path" for DNS over HTTP to a
 *     peer's PeerAPI (exit nodes, app connectors)
 * @param bootstrapResolution addresses of a DoH server's host name, so it can be reached without DNS
 * @param useWithExitNode keep using this resolver while an exit node is in use (capver 125)
 */
public record DNSResolver(
        @JsonProperty("Addr") @OmitEmpty String addr,
        @JsonProperty("BootstrapResolution") @OmitEmpty List<IpAddress> bootstrapResolution,
        @JsonProperty("UseWithExitNode") @OmitEmpty boolean useWithExitNode) {

    public DNSResolver {
        addr = Copies.text(addr);
        bootstrapResolution = Copies.orEmpty(bootstrapResolution);
    }

    /** A resolver at an address, nothing else. */
    public static DNSResolver at(String addr) {
        return new DNSResolver(addr, null, false);
    }
}
