package io.meshcontrol.server;

import io.meshcontrol.api.ApiJson;
import io.meshcontrol.api.LocalAccess;
import io.meshcontrol.core.RandomText;
import io.meshcontrol.core.key.MachinePrivateKey;
import io.meshcontrol.core.key.MachinePublicKey;
import io.meshcontrol.core.netmap.context.MapContext;
import io.meshcontrol.core.netmap.MapSessions;
import io.meshcontrol.core.state.Lease;
import io.meshcontrol.core.state.MapContextState;
import io.meshcontrol.core.state.Network;
import io.meshcontrol.server.control.ControlTransport;
import io.meshcontrol.server.control.MachineRoutes;
import io.meshcontrol.server.http.Authenticator;
import io.meshcontrol.server.http.FailedCredentials;
import io.meshcontrol.server.http.RequestPipeline;
import io.meshcontrol.server.http.Routes;
import io.meshcontrol.server.identity.OidcIssuers;
import io.meshcontrol.server.listener.PublicListener;
import io.meshcontrol.server.metrics.HttpMetrics;
import io.meshcontrol.server.metrics.LeaseMetrics;
import io.meshcontrol.server.metrics.MetricsListener;
import io.meshcontrol.server.relay.EmbeddedRelay;
import io.meshcontrol.server.relay.RelayRuntime;
import io.meshcontrol.server.tls.Https;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.System.Logger.Level;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/** A running server: the HTTP listener with every route, the metrics listener, the local CLI credential. */
public final class MeshServer implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(MeshServer.class.getName());
    /** How long a stopping server lets connections and requests finish before closing them. */
    static final java.time.Duration SHUTDOWN_GRACE = java.time.Duration.ofSeconds(5);

    private final ServerSettings settings;
    private final Routes routes;
    private final ControlTransport control;
    private final MapSessions mapSessions;
    private final ScheduledExecutorService housekeeping;
    private final PublicListener listener;
    private final MetricsListener metrics;
    private final ExecutorService workers;
    private final RelayRuntime relay;
    private final MapContextState mapContext;
    private final AtomicBoolean closed = new AtomicBoolean();
    private final Https https;

    private MeshServer(ServerSettings settings, Routes routes, ControlTransport control, MapSessions mapSessions,
            ScheduledExecutorService housekeeping, PublicListener listener,
            MetricsListener metrics, ExecutorService workers, RelayRuntime relay,
            MapContextState mapContext, Https https) {
        this.https = https;
        this.relay = relay;
        this.mapContext = mapContext;
        this.settings = settings;
        this.routes = routes;
        this.control = control;
        this.mapSessions = mapSessions;
        this.housekeeping = housekeeping;
        this.listener = listener;
        this.metrics = metrics;
        this.workers = workers;
    }

    /**
     * Starts the listeners over {@code network}; {@link Application} is the one caller. Each area is wired by its own
     * part ({@link ControlWiring}, {@link RelayWiring}, {@link ApiWiring}, {@link ConsoleWiring},
     * {@link ListenerWiring}, {@link MetricsWiring}) over what they share ({@link Wiring}); this composes them and
     * starts the listeners in an order that leaves nothing half-open.
     */
    static MeshServer start(ServerSettings settings, Network network, Clock clock, Lease singleton) {
        MachinePrivateKey noiseKey = loadNoiseKey(settings.noiseKeyPath());
        PrometheusRegistry registry = new PrometheusRegistry();
        HttpMetrics httpMetrics = new HttpMetrics(registry);
        ExecutorService workers = Executors.newVirtualThreadPerTaskExecutor();
        String localToken = settings.localCredentialPath() == null ? null : "svckey-local-" + RandomText.alphanumeric(40);
        new LeaseMetrics(registry, singleton);
        // Names this run on /version, so that a client can tell it from whatever answers on its port after a SIGKILL;
        // also the holder of the singleton lease.
        String instance = singleton.holder();
        ScheduledExecutorService housekeeping = Housekeeping.start(network,
                settings.control().ephemeralInactivityTimeout(), singleton);
        Wiring wiring = new Wiring(settings, network, clock, new Routes(), registry, housekeeping, workers,
                new FailedCredentials(clock, registry, settings.listener().failedCredentialsPerAddress()),
                ApiJson.mapper(true), singleton);
        ControlWiring control = null;
        RelayRuntime relay = null;
        MetricsListener metrics = null;
        PublicListener listener = null;
        Https https = null;
        try {
            // ID tokens of workload identities (and OIDC login) are checked against their issuers' published keys.
            OidcIssuers oidcIssuers = new OidcIssuers(settings.derpMaps().egress(), settings.derpMaps().resolver(), clock);
            // One pipeline of stages (metrics, worker dispatch, error ids, authentication) for /api/v1 and /machine/*.
            RequestPipeline pipeline = new RequestPipeline(httpMetrics, workers);
            control = ControlWiring.start(wiring, pipeline, noiseKey);
            relay = RelayWiring.create(wiring);
            ApiWiring.register(wiring, oidcIssuers, control.mapInputs(), relay, instance);
            ConsoleWiring console = ConsoleWiring.register(wiring, oidcIssuers, localToken);
            // HTTPS when the configuration names a certificate or an ACME host name: the relay is then on server_url too.
            https = Https.from(settings.tls(), settings.listener(), clock, network.fetchedDocuments(), singleton,
                    network.leases().shared());
            PublicListener.Setup main = ListenerWiring.main(wiring, https, pipeline, new Authenticator(network.apiKeys(),
                    network.oauthClients(), localToken, console.sessions()));
            // Metrics first: once the main listener answers, everything about it can be scraped.
            metrics = MetricsWiring.start(wiring, control, relay);
            listener = PublicListener.start(main);
            https.start();
            httpMetrics.watch(listener);
            // The DERP map names the listener's port, known once it is bound; until the relay publishes it maps have
            // none. The map context publishes each new map itself.
            relay.start(listener.address().getPort(), network.mapContext()::derpMap);
            MeshServer server = new MeshServer(settings, wiring.routes(), control.transport(), control.mapSessions(),
                    housekeeping, listener, metrics, workers, relay, network.mapContext(), https);
            if (localToken != null) {
                LocalAccess.ofThisProcess(server.localUrl().toString(), localToken, instance)
                        .write(settings.localCredentialPath());
            }
            LOG.log(Level.INFO, "listening on " + server.localUrl() + server.metricsAddress()
                    .map(a -> ", metrics on http://" + a.getHostString() + ":" + a.getPort() + "/metrics").orElse("")
                    + relay.describe());
            return server;
        } catch (IOException | RuntimeException e) {
            if (https != null) {
                https.close();
            }
            stopAll(control == null ? null : control.mapSessions(), housekeeping, workers, relay, listener, metrics);
            throw e instanceof IOException io ? new UncheckedIOException("cannot write the local CLI credential", io)
                    : (RuntimeException) e;
        }
    }

    /** HTTPS on the main listener: its certificate source, and the ACME client when the server obtains its own. */
    public Https https() {
        return https;
    }

    /** The embedded relay while it is on ({@code derp.server.enabled}, or turned on at runtime). */
    public Optional<EmbeddedRelay> relay() {
        return relay.relay().enabled() ? Optional.of(relay.relay()) : Optional.empty();
    }

    /** The relay's runtime parts: the DERP settings in force, the map sources, {@code /bootstrap-dns}. */
    public RelayRuntime relayRuntime() {
        return relay;
    }

    /** The map context every map is built from now (the network's: DNS, the DERP map with the embedded region). */
    public MapContext mapContext() {
        return mapContext.current();
    }

    /** Open map streams, for tests and diagnostics. */
    public MapSessions mapSessions() {
        return mapSessions;
    }

    public Routes routes() {
        return routes;
    }

    /** The {@code /machine/*} endpoints served over ts2021; handlers may be added while the server runs. */
    public MachineRoutes machineRoutes() {
        return control.machineRoutes();
    }

    /** The server's Noise public key, as {@code GET /key} serves it. */
    public MachinePublicKey noisePublicKey() {
        return control.publicKey();
    }

    /**
     * Stops everything a server started, in an order that cannot hang (also when starting failed half-way: what was
     * not started yet is null).
     */
    private static void stopAll(MapSessions mapSessions, ScheduledExecutorService housekeeping, ExecutorService workers,
            RelayRuntime relay, PublicListener listener, MetricsListener metrics) {
        if (mapSessions != null) {
            mapSessions.close();
        }
        housekeeping.shutdownNow();
        // Interrupt the request threads first: a registration follow-up waits up to 15 minutes for a login, and
        // Undertow's stop waits for requests in flight.
        workers.shutdownNow();
        if (relay != null) {
            relay.close();
        }
        if (listener != null) {
            listener.close(SHUTDOWN_GRACE);
        }
        if (metrics != null) {
            metrics.close();
        }
        // A request ending as the server stops (a map stream noting its machine offline) makes its last write now,
        // not after the database has closed behind it (which would open the database file again).
        awaitEnd(workers);
        awaitEnd(housekeeping);
    }

    private static void awaitEnd(ExecutorService executor) {
        try {
            if (!executor.awaitTermination(SHUTDOWN_GRACE.toMillis(), TimeUnit.MILLISECONDS)) {
                LOG.log(Level.WARNING, "requests still running " + SHUTDOWN_GRACE.toSeconds() + " s after the stop");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Loads the Noise key, or makes one on first start; a server without its key cannot serve any client. */
    private static MachinePrivateKey loadNoiseKey(Path file) {
        try {
            return MachinePrivateKey.loadOrCreate(file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot load or create the Noise key " + file + ": " + e.getMessage(), e);
        }
    }

    public InetSocketAddress httpAddress() {
        return listener.address();
    }

    /** The main listener: its address, and the connections it holds that have not switched protocols. */
    public PublicListener listener() {
        return listener;
    }

    public Optional<InetSocketAddress> metricsAddress() {
        return Optional.ofNullable(metrics).map(MetricsListener::address);
    }

    /** How a client on this machine reaches the server: a wildcard listener is reached over loopback. */
    public URI localUrl() {
        InetSocketAddress address = httpAddress();
        InetAddress ip = address.getAddress();
        String host = ip.isAnyLocalAddress() ? "127.0.0.1" : address.getHostString();
        if (host.contains(":")) {
            host = "[" + host + "]";
        }
        return URI.create((https.enabled() ? "https://" : "http://") + host + ":"
                + address.getPort());
    }

    @Override
    public void close() {
        if (closed.getAndSet(true)) {
            return;
        }
        String url = localUrl().toString();
        https.close();
        stopAll(mapSessions, housekeeping, workers, relay, listener, metrics);
        if (settings.localCredentialPath() != null) {
            removeLocalCredential(settings.localCredentialPath(), url);
        }
    }

    /**
     * Removes this server's credential, but not one that another server of the same account has written there
     * since (the default location is per account, not per server).
     */
    private static void removeLocalCredential(Path file, String url) {
        try {
            if (LocalAccess.read(file).url().equals(url)) {
                Files.delete(file);
            }
        } catch (NoSuchFileException e) {
            // removed already
        } catch (IOException | RuntimeException e) {
            LOG.log(Level.WARNING, "could not remove " + file + ": " + e.getMessage());
        }
    }
}
