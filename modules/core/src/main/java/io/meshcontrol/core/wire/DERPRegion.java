package io.meshcontrol.core.wire;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;

/**
 * A DERP region: one or more relays in one place that act as one. Go: {@code tailcfg.DERPRegion}.
 *
 * @param regionId the region's id: positive; 900..999 are for self-hosted relays; always written
 * @param regionCode a short code ("nyc", "home"); always written
 * @param regionName a long name ("New York City"); always written
 * @param latitude degrees north, for exit-node ranking; absent when 0
 * @param longitude degrees east; absent when 0
 * @param avoid deprecated: keep clients from choosing it as home; absent means false
 * @param noMeasureNoHome clients neither measure it nor choose it as home, only use it to reach peers there (capver
 *     115); absent means false
 * @param nodes the region's relays, tried in order; always written
 */
public record DERPRegion(
        @JsonProperty("RegionID") int regionId,
        @JsonProperty("RegionCode") String regionCode,
        @JsonProperty("RegionName") String regionName,
        @JsonProperty("Latitude") @OmitEmpty double latitude,
        @JsonProperty("Longitude") @OmitEmpty double longitude,
        @JsonProperty("Avoid") @OmitEmpty boolean avoid,
        @JsonProperty("NoMeasureNoHome") @OmitEmpty boolean noMeasureNoHome,
        @JsonProperty("Nodes") List<DERPNode> nodes) {

    public DERPRegion {
        regionCode = Copies.text(regionCode);
        regionName = Copies.text(regionName);
        nodes = Copies.list(nodes);
    }
}
