package io.meshcontrol.bench.jmh;

import io.meshcontrol.core.crypto.NoiseFrames;
import io.meshcontrol.core.crypto.NoiseInitiator;
import io.meshcontrol.core.crypto.NoiseProtocolException;
import io.meshcontrol.core.crypto.NoiseResponder;
import io.meshcontrol.core.crypto.RecordEncoder;
import io.meshcontrol.core.key.MachinePrivateKey;
import io.meshcontrol.core.wire.MapResponse;
import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import javax.crypto.Cipher;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;
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
 * Sealing one map frame into ts2021 records, as a map stream does for each full map: {@code records} is the server's
 * path ({@link RecordEncoder}, the JDK's ChaCha20 with our Poly1305), {@code jdkAead} the same records sealed with the
 * JDK's whole ChaCha20-Poly1305 for reference. The frame is the full map of {@code peers} peers as a map stream sends
 * it (kept blocks, see {@link MapEncodingBenchmark}): by default the 10,000-peer map frame (1.57 MB), of which a mass
 * reconnect under allow-all seals 10,000; {@code bench/floors} sets {@code peers} to a network's. With {@code bytes}
 * above 0 it is that many random bytes instead (sealing's cost depends on the length alone). The records go into a
 * direct buffer, as the server's pooled ones are.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class SealingBenchmark {

    @Param("10000")
    public int peers;

    /** A frame of this many random bytes instead of the map's when above 0. */
    @Param("0")
    public int bytes;

    private byte[] frame;
    private RecordEncoder encoder;
    private ByteBuffer out;
    private Cipher jdk;
    private SecretKeySpec jdkKey;
    private final byte[] nonce = new byte[12];
    private long counter;

    @Setup(Level.Trial)
    public void setUp() throws Exception {
        if (bytes > 0) {
            frame = new byte[bytes];
            new Random(1).nextBytes(frame);
        } else {
            frame = mapFrame(peers);
        }
        MachinePrivateKey server = MachinePrivateKey.generate();
        NoiseInitiator client = NoiseInitiator.start(MachinePrivateKey.generate(), server.publicKey(), 1);
        encoder = new NoiseResponder(server).respond(client.initiationMessage()).transport().encoder();
        out = ByteBuffer.allocateDirect(RecordEncoder.encodedLength(frame.length));
        jdk = Cipher.getInstance("ChaCha20-Poly1305");
        byte[] key = new byte[32];
        new Random(2).nextBytes(key);
        jdkKey = new SecretKeySpec(key, "ChaCha20");
    }

    /** The frame of a full map with {@code peers} peers (allow-all), as {@link MapEncodingBenchmark} makes it. */
    private static byte[] mapFrame(int peers) {
        MapResponse map = MapBuilding.allowAllFullMap(peers);
        try (MapEncoding encoding = new MapEncoding()) {
            byte[] frame = encoding.frame(map).bytes();
            System.out.printf("%nsealing the map frame of %d peers: %,d bytes%n", map.peers().size(), frame.length);
            return frame;
        }
    }

    @Benchmark
    public ByteBuffer records() throws NoiseProtocolException {
        out.clear();
        ByteBuffer in = ByteBuffer.wrap(frame);
        while (in.hasRemaining()) {
            encoder.encodeRecord(in, out);
        }
        return out;
    }

    @Benchmark
    public ByteBuffer jdkAead() throws GeneralSecurityException {
        out.clear();
        for (int at = 0; at < frame.length; at += NoiseFrames.MAX_PLAINTEXT_LENGTH) {
            ByteBuffer.wrap(nonce).putLong(4, counter++);
            jdk.init(Cipher.ENCRYPT_MODE, jdkKey, new IvParameterSpec(nonce));
            out.position(out.position() + NoiseFrames.HEADER_LENGTH);
            jdk.doFinal(ByteBuffer.wrap(frame, at, Math.min(NoiseFrames.MAX_PLAINTEXT_LENGTH, frame.length - at)), out);
        }
        return out;
    }
}
