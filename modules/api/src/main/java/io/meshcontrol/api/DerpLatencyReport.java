package io.meshcontrol.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/** {@code GET /api/v1/derp/latency}: one line per region, by region id. */
public record DerpLatencyReport(List<Region> regions) {

    /**
     * What the nodes report about one region.
     *
     * @param preferredBy how many nodes have it as their home relay
     * @param reporting how many nodes measured it
     * @param medianMs median round-trip time in milliseconds; {@code null} (written out) when no node measured it
     * @param p90Ms 90th percentile (nearest rank) in milliseconds; {@code null} when no node measured it
     */
    public record Region(int regionId, String code, String name, int preferredBy, int reporting,
                         @JsonInclude(JsonInclude.Include.ALWAYS) Double medianMs,
                         @JsonInclude(JsonInclude.Include.ALWAYS) Double p90Ms) {
    }
}
