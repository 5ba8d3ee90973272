package io.meshcontrol.core.wire;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.meshcontrol.core.net.IpPrefix;
import java.util.List;
import java.util.Map;

/**
 * Peer capabilities a filter rule grants its sources towards some destinations (Taildrive, file sharing, app
 * grants). Go: {@code tailcfg.CapGrant}.
 *
 * @param dsts the destinations the capabilities apply to; always written
 * @param caps deprecated capability names without arguments; absent when none (use {@code capMap})
 * @param capMap capabilities with JSON arguments ({@code null} or a list of values); absent when none
 */
public record CapGrant(
        @JsonProperty("Dsts") List<IpPrefix> dsts,
        @JsonProperty("Caps") @OmitEmpty List<String> caps,
        @JsonProperty("CapMap") @OmitEmpty Map<String, List<RawJson>> capMap) {

    public CapGrant {
        dsts = Copies.list(dsts);
        caps = Copies.orEmpty(caps);
        capMap = Copies.orEmpty(capMap);
    }
}
