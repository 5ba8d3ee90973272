package io.meshcontrol.bench.jmh;

import io.meshcontrol.core.netmap.PeerForms;
import io.meshcontrol.core.policy.Policy;
import io.meshcontrol.core.wire.MapResponse;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * One node's full map (its first map message) in a network of {@code nodes} nodes, all of them its peers: with
 * every peer form built for it ({@code fullMap}), with the forms a server's earlier streams built
 * ({@code fullMapFormsKept}, what each further stream of a mass reconnect pays), and the forms alone
 * ({@code peerForms}: every node's form built once, the part that grows with N for the first map after a change).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class FullMapBenchmark {

    @Param("10000")
    public int nodes;

    private MapBuilding building;
    private long nodeId;
    private PeerForms kept;

    @Setup(Level.Trial)
    public void setUp() {
        building = new MapBuilding(SyntheticNetwork.snapshot(nodes, nodes / 10), Policy.EMPTY);
        nodeId = 1;
        int peers = building.fullMap(nodeId).peers().size();
        if (peers != nodes - 1) {
            throw new IllegalStateException("the full map has " + peers + " peers, not " + (nodes - 1));
        }
        kept = new PeerForms();
        building.fullMap(nodeId, kept);
    }

    @Benchmark
    public MapResponse fullMap() {
        return building.fullMap(nodeId);
    }

    @Benchmark
    public MapResponse fullMapFormsKept() {
        return building.fullMap(nodeId, kept);
    }

    @Benchmark
    public int peerForms() {
        return building.buildPeerForms(new PeerForms());
    }
}
