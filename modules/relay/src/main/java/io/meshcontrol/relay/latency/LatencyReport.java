package io.meshcontrol.relay.latency;

import io.meshcontrol.core.wire.DERPMap;
import io.meshcontrol.core.wire.DERPRegion;
import io.meshcontrol.core.wire.NetInfo;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * Per-region relay latency as the clients measure it: from each node's last reported {@code NetInfo}
 * ({@code PreferredDERP}, and {@code DERPLatency} in seconds per "{@code <region>-v4}"/"{@code -v6}").
 */
public final class LatencyReport {

    /**
     * One region's line.
     *
     * @param preferredBy how many nodes have it as their home relay
     * @param reporting how many nodes reported a latency to it
     * @param medianMillis the median of the nodes' round-trip times in milliseconds, or null without reports
     * @param p90Millis the 90th percentile (nearest rank), or null without reports
     */
    public record Region(int regionId, String code, String name, int preferredBy, int reporting, Double medianMillis,
                         Double p90Millis) {
    }

    private LatencyReport() {
    }

    /**
     * Every region of {@code map}, by region id. A region the map no longer has is not listed: nodes go on reporting
     * it until their next measurement, and a removed relay is of no interest.
     */
    public static List<Region> of(DERPMap map, List<NetInfo> reports) {
        Map<Integer, List<Double>> latencies = new HashMap<>();
        Map<Integer, Integer> preferred = new HashMap<>();
        for (NetInfo info : reports) {
            if (info.preferredDerp() > 0) {
                preferred.merge(info.preferredDerp(), 1, Integer::sum);
            }
            // One value per node and region: the faster address family.
            Map<Integer, Double> best = new HashMap<>();
            info.derpLatency().forEach((key, seconds) -> {
                int dash = key.indexOf('-');
                try {
                    int region = Integer.parseInt(dash < 0 ? key : key.substring(0, dash));
                    if (seconds != null && seconds >= 0) {
                        best.merge(region, seconds * 1000, Math::min);
                    }
                } catch (NumberFormatException e) {
                    // a key this report does not understand; the rest still counts
                }
            });
            best.forEach((region, millis) -> latencies.computeIfAbsent(region, r -> new ArrayList<>()).add(millis));
        }
        Map<Integer, DERPRegion> regions = map.regions() == null ? Map.of() : map.regions();
        TreeSet<Integer> ids = new TreeSet<>(regions.keySet());
        List<Region> out = new ArrayList<>();
        for (int id : ids) {
            DERPRegion region = regions.get(id);
            List<Double> values = latencies.getOrDefault(id, List.of());
            List<Double> sorted = values.stream().sorted().toList();
            out.add(new Region(id, region.regionCode(), region.regionName(),
                    preferred.getOrDefault(id, 0), sorted.size(), median(sorted), nearestRank(sorted, 0.9)));
        }
        return out;
    }

    static Double median(List<Double> sorted) {
        int n = sorted.size();
        if (n == 0) {
            return null;
        }
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }

    static Double nearestRank(List<Double> sorted, double quantile) {
        if (sorted.isEmpty()) {
            return null;
        }
        int rank = (int) Math.ceil(quantile * sorted.size());
        return sorted.get(Math.max(0, rank - 1));
    }
}
