package io.meshcontrol.server.control;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.core.key.MachinePrivateKey;
import io.meshcontrol.server.http.RequestPipeline;
import io.meshcontrol.server.listener.ListenerLimits;
import io.meshcontrol.server.listener.PublicListener;
import io.meshcontrol.server.metrics.HttpMetrics;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.undertow.Handlers;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.xnio.OptionMap;

/**
 * Timeouts, squeezed into seconds: the listener facing the network (the server's own, {@link PublicListener}) drops
 * connections whose header is not complete after one second and idle HTTP/1.1 connections after one second, and the
 * transport lets a session sit without streams for one second. A long poll that is silent for longer than all of
 * them must survive; an empty session must be told to go away, quietly.
 */
class ControlTimeoutsTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(20);

    private ExecutorService workers;
    private ControlTransport transport;
    private PublicListener listener;

    @BeforeEach
    void start() {
        workers = Executors.newVirtualThreadPerTaskExecutor();
        transport = new ControlTransport(MachinePrivateKey.generate(),
                new RequestPipeline(new HttpMetrics(new PrometheusRegistry()), workers),
                Clock.systemUTC(), new ControlTransport.Settings(28, Duration.ofSeconds(1)));
        MachineTestEndpoints.register(transport.machineRoutes());
        listener = PublicListener.start(new PublicListener.Setup("127.0.0.1", 0, null,
                Handlers.path().addExactPath("/ts2021", transport.upgradeHandler()),
                OptionMap.EMPTY, 1,
                new ListenerLimits(Duration.ofSeconds(1), Duration.ofSeconds(1), 2, 10)));
    }

    @AfterEach
    void stop() {
        listener.close();
        workers.shutdownNow();
    }

    @Test
    void aLongPollSilentForLongerThanEveryTimeoutKeepsItsConnection() throws Exception {
        try (LogCapture log = new LogCapture(); NoiseTestClient noise = connect();
                Http2TestClient http2 = new Http2TestClient(noise)) {
            Http2TestClient.Exchange poll = http2.request("GET",
                    "/machine/test/stream?chunks=3&pauseMillis=2500&size=20", null);
            assertEquals(200, poll.status(TIMEOUT));
            assertEquals(0, listener.openConnections(), "a switched connection leaves the per-address count");
            int messages = 0;
            while (messages < 3) {
                Http2TestClient.Chunk chunk = poll.nextChunk(TIMEOUT);
                assertNotNull(chunk, "message " + messages);
                if (chunk.data().length > 0) {
                    messages++;
                }
            }
            poll.body(TIMEOUT);
            assertFalse(http2.goAway.isDone(), "no GOAWAY while a stream was open");
            assertEquals(List.of(), log.lines());
        }
    }

    @Test
    void aSessionWithoutStreamsIsToldToGoAwayWithoutAWarning() throws Exception {
        try (LogCapture log = new LogCapture(); NoiseTestClient noise = connect();
                Http2TestClient http2 = new Http2TestClient(noise)) {
            assertEquals(200, http2.request("GET", "/machine/test/whoami", null).status(TIMEOUT));
            long start = System.nanoTime();
            int code = http2.goAway.get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
            long waited = Duration.ofNanos(System.nanoTime() - start).toMillis();
            assertEquals(0, code, "NO_ERROR");
            assertTrue(waited >= 800 && waited < 5000, "GOAWAY after " + waited + " ms");
            NoiseTestClient.readToEnd(noise.socket);
            assertEquals(List.of(), log.settledLines());
        }
    }

    private NoiseTestClient connect() throws Exception {
        InetSocketAddress address = listener.address();
        return NoiseTestClient.connect(new InetSocketAddress("127.0.0.1", address.getPort()), transport.publicKey(),
                142);
    }
}
