package io.meshcontrol.server.control;

import io.meshcontrol.core.MeshException;
import io.meshcontrol.core.RateLimitedLog;
import io.meshcontrol.core.crypto.NoiseResponder;
import io.meshcontrol.core.key.MachinePrivateKey;
import io.meshcontrol.core.key.MachinePublicKey;
import io.meshcontrol.server.http.Reply;
import io.meshcontrol.server.http.RequestPipeline;
import io.meshcontrol.server.http.Routes;
import io.meshcontrol.server.listener.BufferPools;
import io.undertow.UndertowOptions;
import io.undertow.server.HttpHandler;
import java.time.Clock;
import java.time.Duration;
import org.xnio.OptionMap;

/**
 * The ts2021 control transport as a whole: {@code GET /key} and {@code POST /ts2021} on the main listener, and, inside
 * each upgraded connection, an HTTP/2 server for the {@link MachineRoutes}.
 *
 * <p>HTTP/2 settings of the sessions, and why:
 * <ul>
 *   <li>No idle timeout on open streams ({@code IDLE_TIMEOUT} unset): a map long poll may be silent between its
 *       keep-alives, and a registration that waits for a person to log in may be silent for minutes.</li>
 *   <li>A connection with no open stream at all gets a GOAWAY after {@link Settings#idleConnectionTimeout()}
 *       ({@code NO_REQUEST_TIMEOUT}); Tailscale's client simply dials again when it next needs the server. This reaps
 *       connections of clients that vanished without a word.</li>
 *   <li>At most {@value #MAX_CONCURRENT_STREAMS} concurrent streams per connection (a client uses a handful), and
 *       request bodies of at most {@link Routes#MAX_BODY_BYTES} bytes.</li>
 * </ul>
 */
public final class ControlTransport {

    /** Per connection; Tailscale's client needs a few at a time (map poll, lite updates, register, c2n answers). */
    static final int MAX_CONCURRENT_STREAMS = 100;
    /** Buffers for socket reads, sealed records and HTTP/2 frames; 16 KiB holds four full records. */
    private static final int BUFFER_SIZE = 16 * 1024;
    /** What a client with no Noise key would get: the zero key, {@code mkey:} and 64 zeros. */
    private static final String ZERO_MACHINE_KEY = MachinePublicKey.fromRaw(new byte[32]).toText();

    /**
     * Tunables of the transport.
     *
     * @param oldestProtocolVersion handshakes from older clients are refused with an error frame. The default, 28, is
     *                              the capability version at which Tailscale clients began to speak Noise: anything
     *                              older is not a ts2021 client. Raise it to refuse old releases (headscale accepts the
     *                              last ten minor releases)
     * @param idleConnectionTimeout how long a session may have no open stream before it is told to go away
     */
    public record Settings(int oldestProtocolVersion, Duration idleConnectionTimeout) {

        public static Settings defaults() {
            return new Settings(28, Duration.ofMinutes(10));
        }
    }

    private final NoiseResponder responder;
    private final MachineRoutes machineRoutes;
    private final NoiseUpgradeHandler upgradeHandler;

    /** @param pipeline the request pipeline the {@code /machine/*} endpoints are served through */
    public ControlTransport(MachinePrivateKey serverKey, RequestPipeline pipeline, Clock clock) {
        this(serverKey, pipeline, clock, Settings.defaults());
    }

    public ControlTransport(MachinePrivateKey serverKey, RequestPipeline pipeline, Clock clock, Settings settings) {
        this.responder = new NoiseResponder(serverKey);
        this.machineRoutes = new MachineRoutes(pipeline);
        OptionMap http2Options = OptionMap.builder()
                .set(UndertowOptions.MAX_ENTITY_SIZE, Routes.MAX_BODY_BYTES)
                .set(UndertowOptions.HTTP2_SETTINGS_MAX_CONCURRENT_STREAMS, MAX_CONCURRENT_STREAMS)
                .set(UndertowOptions.NO_REQUEST_TIMEOUT, (int) settings.idleConnectionTimeout().toMillis())
                .getMap();
        // What clients get wrong is logged, a few lines a minute per kind: any client can get it wrong on purpose.
        RateLimitedLog warnings = new RateLimitedLog(System.getLogger(ControlTransport.class.getName()));
        Http2OverNoise sessions = new Http2OverNoise(BufferPools.shared(BUFFER_SIZE), http2Options,
                machineRoutes.handler(), clock, warnings);
        this.upgradeHandler = new NoiseUpgradeHandler(responder, sessions, pipeline.workers(),
                settings.oldestProtocolVersion(), warnings);
    }

    /** Where the {@code /machine/*} endpoints are registered. */
    public MachineRoutes machineRoutes() {
        return machineRoutes;
    }

    /** The key clients pin: served at {@code /key}. */
    public MachinePublicKey publicKey() {
        return responder.publicKey();
    }

    /** Adds {@code GET /key} and {@code POST /ts2021} (and its {@code GET} twin) to the main listener's routes. */
    public void register(Routes routes) {
        ServerKeys keys = new ServerKeys(ZERO_MACHINE_KEY, publicKey().toText());
        routes.addPublic("GET", "/key", request -> {
            // Clients send their capability version; every version that may ask gets the same answer, but a request
            // without one is not from a Tailscale client.
            String version = request.query("v").orElseThrow(
                    () -> MeshException.invalid("query parameter v (the client's capability version) is required"));
            if (!version.matches("[0-9]{1,9}")) {
                throw MeshException.invalid("query parameter v must be a number, got \"" + version + "\"");
            }
            return Reply.ok(keys);
        });
        routes.addExchange("POST", "/ts2021", upgradeHandler);
        routes.addExchange("GET", "/ts2021", upgradeHandler);
    }

    /** The {@code /ts2021} handler, for tests that run their own listener. */
    HttpHandler upgradeHandler() {
        return upgradeHandler;
    }
}
