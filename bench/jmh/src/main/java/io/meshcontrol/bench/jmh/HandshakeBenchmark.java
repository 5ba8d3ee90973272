package io.meshcontrol.bench.jmh;

import io.meshcontrol.core.crypto.AcceptedHandshake;
import io.meshcontrol.core.crypto.NoiseInitiator;
import io.meshcontrol.core.crypto.NoiseProtocolException;
import io.meshcontrol.core.crypto.NoiseResponder;
import io.meshcontrol.core.key.ChallengePrivateKey;
import io.meshcontrol.core.key.MachinePrivateKey;
import io.meshcontrol.core.key.X25519;
import java.security.InvalidKeyException;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * The server's side of one ts2021 Noise IK handshake, as it runs per connection: {@link NoiseResponder#respond}
 * (a new ephemeral key, the agreements {@code es}, {@code ss}, {@code ee} and {@code se}, BLAKE2s and ChaCha20-Poly1305
 * over the two messages) and the early payload's challenge key, which the server makes for every client of protocol
 * version 49 or later (all pinned clients). Key generation is an X25519 multiplication of the base point.
 *
 * <p>{@code newClient}: a machine the server has not seen (a registration): four agreements. {@code knownClient}: a
 * machine that connected before, whose {@code ss} the responder keeps (a reconnect): three. {@code agreement}: one
 * X25519 agreement alone, to count them by. The responder keeps no state per initiation, so one initiation, built
 * in set-up by core's own initiator, serves every call.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class HandshakeBenchmark {

    private MachinePrivateKey serverKey;
    private NoiseResponder responder;
    private byte[] initiation;
    private byte[] privateKey;
    private byte[] publicKey;

    @Setup(Level.Trial)
    public void setUp() throws NoiseProtocolException {
        serverKey = MachinePrivateKey.generate();
        responder = new NoiseResponder(serverKey);
        NoiseInitiator client = NoiseInitiator.start(MachinePrivateKey.generate(), serverKey.publicKey(),
                MapBuilding.CAP_VERSION);
        initiation = client.initiationMessage();
        // The client accepts the answer: what is measured is a handshake that works. This also keeps its ss.
        client.complete(responder.respond(initiation).response());
        privateKey = MachinePrivateKey.generate().bytes();
        publicKey = MachinePrivateKey.generate().publicKey().bytes();
    }

    @Benchmark
    public void newClient(Blackhole sink) throws NoiseProtocolException {
        handshake(new NoiseResponder(serverKey), sink);
    }

    @Benchmark
    public void knownClient(Blackhole sink) throws NoiseProtocolException {
        handshake(responder, sink);
    }

    @Benchmark
    public byte[] agreement() throws InvalidKeyException {
        return X25519.sharedSecret(privateKey, publicKey);
    }

    private void handshake(NoiseResponder server, Blackhole sink) throws NoiseProtocolException {
        AcceptedHandshake accepted = server.respond(initiation);
        sink.consume(accepted);
        sink.consume(ChallengePrivateKey.generate().publicKey());
    }
}
