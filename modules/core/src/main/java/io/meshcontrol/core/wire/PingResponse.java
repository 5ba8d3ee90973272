package io.meshcontrol.core.wire;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * What a client posts back after a {@link PingRequest} of type disco, TSMP, ICMP or peerapi. Go:
 * {@code tailcfg.PingResponse}. The server only reads it.
 *
 * @param type the kind of ping that was done; always sent
 * @param ip the address pinged; absent when empty
 * @param nodeIp the Tailscale IP of the node that answered; absent when empty
 * @param nodeName that node's name; absent when empty
 * @param err why the ping failed; absent on success
 * @param latencySeconds the round trip; absent on failure
 * @param endpoint the ip:port a disco ping reached the peer at; absent when not direct
 * @param peerRelay the peer relay a disco ping went through; absent when none
 * @param derpRegionId the DERP region a disco ping went through; absent when direct
 * @param derpRegionCode that region's code; absent when direct
 * @param peerApiPort the peer's PeerAPI port (peerapi pings); absent otherwise
 * @param isLocalIp whether the address pinged is the client's own; absent means false
 */
public record PingResponse(
        @JsonProperty("Type") String type,
        @JsonProperty("IP") @OmitEmpty String ip,
        @JsonProperty("NodeIP") @OmitEmpty String nodeIp,
        @JsonProperty("NodeName") @OmitEmpty String nodeName,
        @JsonProperty("Err") @OmitEmpty String err,
        @JsonProperty("LatencySeconds") @OmitEmpty double latencySeconds,
        @JsonProperty("Endpoint") @OmitEmpty String endpoint,
        @JsonProperty("PeerRelay") @OmitEmpty String peerRelay,
        @JsonProperty("DERPRegionID") @OmitEmpty int derpRegionId,
        @JsonProperty("DERPRegionCode") @OmitEmpty String derpRegionCode,
        @JsonProperty("PeerAPIPort") @OmitEmpty int peerApiPort,
        @JsonProperty("IsLocalIP") @OmitEmpty boolean isLocalIp) {

    public PingResponse {
        type = Copies.text(type);
        ip = Copies.text(ip);
        nodeIp = Copies.text(nodeIp);
        nodeName = Copies.text(nodeName);
        err = Copies.text(err);
        endpoint = Copies.text(endpoint);
        peerRelay = Copies.text(peerRelay);
        derpRegionCode = Copies.text(derpRegionCode);
    }
}
