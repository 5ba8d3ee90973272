package io.meshcontrol.relay.map;

import io.meshcontrol.core.wire.DERPHomeParams;
import io.meshcontrol.core.wire.DERPMap;
import io.meshcontrol.core.wire.DERPRegion;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Merges map layers in order: a later layer's region replaces an earlier one, {@code null} removes, scores merge. */
public final class DerpMapMerge {

    private DerpMapMerge() {
    }

    public static DERPMap merge(List<MapLayer> layers) {
        Map<Integer, DERPRegion> regions = new TreeMap<>();
        Map<Integer, Double> scores = new TreeMap<>();
        boolean omitDefaults = false;
        for (MapLayer layer : layers) {
            layer.removed().forEach(regions::remove);
            regions.putAll(layer.regions());
            scores.putAll(layer.scores());
            omitDefaults |= layer.omitDefaultRegions();
        }
        // Always present, empty when no scores: in a delta an absent HomeParams would keep scores a source dropped.
        return new DERPMap(new DERPHomeParams(scores), regions, omitDefaults);
    }
}
