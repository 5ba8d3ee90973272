package io.meshcontrol.core.wire;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.meshcontrol.core.key.NodePublicKey;

/**
 * A node's request to publish a DNS record, posted to {@link #PATH} over its control connection: the answer to an
 * ACME DNS-01 challenge for one of its {@code DNSConfig.CertDomains} ({@code tailscale cert}). Go:
 * {@code tailcfg.SetDNSRequest}, encoded with Go's field names (the type has no JSON tags). The server only reads
 * it and answers {@code {}} (Go's empty {@code SetDNSResponse}) once the record is published.
 *
 * @param version the client's capability version
 * @param nodeKey the node's current node key
 * @param name the record's name: {@code _acme-challenge.} plus a certificate name
 * @param type the record's type, {@code TXT}
 * @param value the record's text
 */
public record SetDNSRequest(
        @JsonProperty("Version") int version,
        @JsonProperty("NodeKey") NodePublicKey nodeKey,
        @JsonProperty("Name") String name,
        @JsonProperty("Type") String type,
        @JsonProperty("Value") String value) {

    public static final String PATH = "/machine/set-dns";

    public SetDNSRequest {
        name = Copies.text(name);
        type = Copies.text(type);
        value = Copies.text(value);
    }
}
