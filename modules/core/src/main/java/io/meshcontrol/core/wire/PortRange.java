package io.meshcontrol.core.wire;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * An inclusive range of ports. Go: {@code tailcfg.PortRange}.
 *
 * @param first the first port (0..65535); always written
 * @param last the last port, not below {@code first}; always written
 */
public record PortRange(@JsonProperty("First") int first, @JsonProperty("Last") int last) {

    /** Every port, 0..65535. */
    public static final PortRange ANY = new PortRange(0, 65535);

    public PortRange {
        if (first < 0 || last > 65535 || first > last) {
            throw new IllegalArgumentException("bad port range " + first + "-" + last);
        }
    }

    /** A single port. */
    public static PortRange of(int port) {
        return new PortRange(port, port);
    }
}
