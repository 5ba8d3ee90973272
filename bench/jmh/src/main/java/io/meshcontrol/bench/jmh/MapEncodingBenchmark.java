package io.meshcontrol.bench.jmh;

import io.meshcontrol.core.netmap.frames.MapFrame;
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
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Encoding a full map with {@code peers} peers: JSON, JSON plus zstd of the whole message as one frame, zstd alone,
 * and the frame as the server sends it now, whose blocks of 64 peers were compressed by an earlier map and are
 * kept (the steady state of a mass reconnect), in the pieces the stream writes: the message's own parts compressed,
 * the kept blocks' arrays as they are. The network is {@code peers + 1} nodes under allow-all
 * ({@link MapBuilding#allowAllFullMap}); {@code bench/floors} sets {@code peers} to a network's.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class MapEncodingBenchmark {

    @Param("10000")
    public int peers;

    private MapEncoding encoding;
    private MapResponse map;
    private byte[] json;

    @Setup(Level.Trial)
    public void setUp() {
        map = MapBuilding.allowAllFullMap(peers);
        encoding = new MapEncoding();
        json = encoding.json(map);
        System.out.printf("%nmap of %d peers: %,d bytes of JSON, %,d bytes as one zstd frame, %,d with kept blocks%n",
                map.peers().size(), json.length, encoding.compress(json).length, encoding.frame(map).length());
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        encoding.close();
    }

    @Benchmark
    public byte[] json() {
        return encoding.json(map);
    }

    @Benchmark
    public byte[] jsonAndZstd() {
        return encoding.compress(encoding.json(map));
    }

    @Benchmark
    public MapFrame keptBlocks() {
        return encoding.frame(map);
    }

    @Benchmark
    public byte[] zstdOnly() {
        return encoding.compress(json);
    }
}
