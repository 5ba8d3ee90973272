package io.meshcontrol.core.wire;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Map;

/**
 * The DERP relays a client may use. Go: {@code tailcfg.DERPMap}. In a map message, an absent DERPMap means unchanged;
 * inside a present one, absent {@code Regions} keeps the previous regions (and {@code omitDefaultRegions}) and absent
 * {@code HomeParams} keeps the previous parameters (clients from capver 65).
 *
 * @param homeParams how clients weigh regions when choosing a home; absent means unchanged
 * @param regions the regions by id (JSON keys are decimal strings); always written, {@code null} means unchanged
 * @param omitDefaultRegions for DERP map files merged by a control server: drop Tailscale's default regions; clients
 *     only carry it; absent means false (JSON name is camelCase)
 */
public record DERPMap(
        @JsonProperty("HomeParams") @OmitNull DERPHomeParams homeParams,
        @JsonProperty("Regions") Map<Integer, DERPRegion> regions,
        @JsonProperty("omitDefaultRegions") @OmitEmpty boolean omitDefaultRegions) {

    public DERPMap {
        regions = Copies.map(regions);
    }
}
