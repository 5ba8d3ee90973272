package io.meshcontrol.core.wire;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * A service a client listens on, in {@code Hostinfo.Services}. Go: {@code tailcfg.Service}. Peers find a node's PeerAPI
 * only here ({@code peerapi4}, {@code peerapi6}); {@code peerapi-dns-proxy} (port 1) advertises exit-node DNS.
 *
 * @param proto "tcp", "udp", "peerapi4", "peerapi6" or "peerapi-dns-proxy"; always written
 * @param port the port (0..65535); always written
 * @param description what listens (a process name); absent when empty
 */
public record Service(
        @JsonProperty("Proto") String proto,
        @JsonProperty("Port") int port,
        @JsonProperty("Description") @OmitEmpty String description) {

    public Service {
        proto = Copies.text(proto);
        description = Copies.text(description);
    }
}
