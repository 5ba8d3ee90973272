package io.meshcontrol.relay.map;

import io.meshcontrol.core.wire.DERPRegion;
import java.util.Map;
import java.util.Set;

/**
 * What one map source contributes: regions it adds or replaces, regions it removes ({@code null} in the file), and
 * home scores. Layers merge in order, later ones winning ({@link DerpMapMerge}).
 *
 * @param source the file or URL it came from, for messages
 * @param scores positive region scores only: zero and negative ones are dropped when the source is read
 * @param omitDefaultRegions the vendor's flag, carried through when any source sets it
 */
public record MapLayer(String source, Map<Integer, DERPRegion> regions, Set<Integer> removed,
                       Map<Integer, Double> scores, boolean omitDefaultRegions) {

    public MapLayer {
        regions = Map.copyOf(regions);
        removed = Set.copyOf(removed);
        scores = Map.copyOf(scores);
    }

    /** Whether it changes anything at all; a map file that does not fails to load. */
    public boolean isEmpty() {
        return regions.isEmpty() && removed.isEmpty() && scores.isEmpty();
    }
}
