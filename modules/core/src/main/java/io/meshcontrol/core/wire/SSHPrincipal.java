package io.meshcontrol.core.wire;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;

/**
 * Who an SSH rule matches; set exactly one field. Go: {@code tailcfg.SSHPrincipal}; every field is left out when empty.
 *
 * @param node a node's StableID
 * @param nodeIp a node's Tailscale IP
 * @param userLogin a user's login name ("alice@example.com")
 * @param any match every connection
 * @param unusedPubKeys SSH public keys of a retired feature; absent normally (JSON name {@code pubKeys})
 */
public record SSHPrincipal(
        @JsonProperty("node") @OmitEmpty String node,
        @JsonProperty("nodeIP") @OmitEmpty String nodeIp,
        @JsonProperty("userLogin") @OmitEmpty String userLogin,
        @JsonProperty("any") @OmitEmpty boolean any,
        @JsonProperty("pubKeys") @OmitEmpty List<String> unusedPubKeys) {

    public SSHPrincipal {
        node = Copies.text(node);
        nodeIp = Copies.text(nodeIp);
        userLogin = Copies.text(userLogin);
        unusedPubKeys = Copies.orEmpty(unusedPubKeys);
    }

    /** The principal that matches every connection. */
    public static SSHPrincipal anyone() {
        return new SSHPrincipal("", "", "", true, null);
    }

    /** The principal that matches connections from a node address. */
    public static SSHPrincipal nodeIp(String ip) {
        return new SSHPrincipal("", ip, "", false, null);
    }
}
