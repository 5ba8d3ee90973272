package io.meshcontrol.core.wire;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Map;

/**
 * How clients choose their home DERP region. Go: {@code tailcfg.DERPHomeParams}.
 *
 * @param regionScore a factor per region id applied to measured latency: below 1 prefers the region, above 1 avoids
 *     it, missing means 1; absent means unchanged, an empty map resets all scores (which Go's encoder could not say)
 */
public record DERPHomeParams(@JsonProperty("RegionScore") @OmitNull Map<Integer, Double> regionScore) {

    public DERPHomeParams {
        regionScore = Copies.map(regionScore);
    }
}
