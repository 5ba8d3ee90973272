package io.meshcontrol.relay.latency;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.meshcontrol.core.wire.DERPMap;
import io.meshcontrol.core.wire.DERPNode;
import io.meshcontrol.core.wire.DERPRegion;
import io.meshcontrol.core.wire.NetInfo;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LatencyReportTest {

    private static NetInfo report(int preferred, Map<String, Double> latency) {
        return new NetInfo(null, null, null, null, null, false, null, null, null, preferred, null, latency, null);
    }

    private static DERPRegion region(int id, String code) {
        return new DERPRegion(id, code, code.toUpperCase(), 0, 0, false, false,
                List.of(DERPNode.builder().name(id + "a").regionId(id).hostName(code + ".example").build()));
    }

    @Test
    void countsHomesAndReportsAndTakesMedianAndP90PerRegion() {
        DERPMap map = new DERPMap(null, Map.of(1, region(1, "nyc"), 999, region(999, "svc"), 2, region(2, "fra")), false);
        List<NetInfo> reports = List.of(
                report(999, Map.of("999-v4", 0.010, "999-v6", 0.008, "1-v4", 0.100)),
                report(999, Map.of("999-v4", 0.020)),
                report(1, Map.of("999-v4", 0.030, "1-v4", 0.050)),
                report(999, Map.of("999-v4", 0.040)),
                report(0, Map.of()));
        List<LatencyReport.Region> lines = LatencyReport.of(map, reports);
        assertEquals(List.of(1, 2, 999), lines.stream().map(LatencyReport.Region::regionId).toList());
        LatencyReport.Region svc = lines.get(2);
        assertEquals("svc", svc.code());
        assertEquals(3, svc.preferredBy());
        assertEquals(4, svc.reporting());
        assertEquals(25.0, svc.medianMillis(), 1e-9, "median of 8, 20, 30, 40 ms (the faster family per node)");
        assertEquals(40.0, svc.p90Millis(), 1e-9, "nearest rank: ceil(0.9 * 4) = 4th");
        LatencyReport.Region nyc = lines.get(0);
        assertEquals(1, nyc.preferredBy());
        assertEquals(2, nyc.reporting());
        assertEquals(75.0, nyc.medianMillis(), 1e-9);
        LatencyReport.Region fra = lines.get(1);
        assertEquals(0, fra.reporting());
        assertNull(fra.medianMillis(), "no data");
        assertNull(fra.p90Millis());
    }

    @Test
    void aRegionTheMapNoLongerHasIsNotListedThoughNodesStillReportIt() {
        DERPMap map = new DERPMap(null, Map.of(1, region(1, "nyc")), false);
        List<LatencyReport.Region> lines = LatencyReport.of(map, List.of(
                report(7, Map.of("7-v4", 0.010, "1-v4", 0.020)), report(1, Map.of("7-v6", 0.030))));
        assertEquals(List.of(1), lines.stream().map(LatencyReport.Region::regionId).toList());
        assertEquals(1, lines.get(0).preferredBy());
        assertEquals(1, lines.get(0).reporting());
    }
}
