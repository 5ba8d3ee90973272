package io.meshcontrol.core.wire;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * An extra DNS record MagicDNS answers. Go: {@code tailcfg.DNSRecord}.
 *
 * @param name the fully qualified name, trailing dot optional; always written
 * @param type the record type; absent (empty) means A or AAAA according to the value
 * @param value the record's value (an IP address for A/AAAA); always written
 */
public record DNSRecord(
        @JsonProperty("Name") String name,
        @JsonProperty("Type") @OmitEmpty String type,
        @JsonProperty("Value") String value) {

    public DNSRecord {
        name = Copies.text(name);
        type = Copies.text(type);
        value = Copies.text(value);
    }
}
