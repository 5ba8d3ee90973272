package io.meshcontrol.server;

import io.meshcontrol.api.ApiJson;
import io.meshcontrol.api.LocalAccess;
import io.meshcontrol.api.ServerInfo;
import io.meshcontrol.core.RandomText;
import io.meshcontrol.core.config.HostPort;
import io.meshcontrol.core.config.MeshConfig;
import io.meshcontrol.core.key.MachinePrivateKey;
import io.meshcontrol.core.key.MachinePublicKey;
import io.meshcontrol.core.wire.SSHEventNotifyRequest;
import io.meshcontrol.core.wire.SetDNSRequest;
import io.meshcontrol.core.state.Network;
import io.meshcontrol.core.netmap.AccessControl;
import io.meshcontrol.core.netmap.MapContext;
import io.meshcontrol.core.wire.DERPMap;
import io.meshcontrol.core.netmap.MapInputs;
import io.meshcontrol.core.netmap.MapSessions;
import io.meshcontrol.core.netmap.RouterProbes;
import io.meshcontrol.core.netmap.ServiceHosting;
import io.meshcontrol.server.control.ClientReleases;
import io.meshcontrol.server.control.ControlTransport;
import io.meshcontrol.server.control.MapContexts;
import io.meshcontrol.server.control.MapEndpoint;
import io.meshcontrol.server.control.ProbeAnswerEndpoint;
import io.meshcontrol.server.control.RegisterEndpoint;
import io.meshcontrol.server.control.SetDnsEndpoint;
import io.meshcontrol.server.control.MachineRoutes;
import io.meshcontrol.server.control.SshRecordingFailureEndpoint;
import io.meshcontrol.server.docs.DocsRoutes;
import io.meshcontrol.server.http.ApiStyle;
import io.meshcontrol.server.http.ApiStyles;
import io.meshcontrol.server.http.FailedCredentials;
import io.meshcontrol.server.http.Authenticator;
import io.meshcontrol.server.http.ProblemWriter;
import io.meshcontrol.server.http.RequestPipeline;
import io.meshcontrol.server.http.Routes;
import io.meshcontrol.server.console.ConsoleRoutes;
import io.meshcontrol.server.login.ConsoleSignIn;
import io.meshcontrol.server.login.KeySessions;
import io.meshcontrol.server.login.OidcLogin;
import io.meshcontrol.server.listener.PublicListener;
import io.meshcontrol.server.metrics.DebugPages;
import io.meshcontrol.server.metrics.DerpClientsPage;
import io.meshcontrol.server.metrics.HttpMetrics;
import io.meshcontrol.server.metrics.MetricsListener;
import io.meshcontrol.server.metrics.MapMetrics;
import io.meshcontrol.server.metrics.RelayMetrics;
import io.meshcontrol.server.metrics.RoutesPage;
import io.meshcontrol.server.nodecerts.ChallengeRecords;
import io.meshcontrol.server.relay.EmbeddedRelay;
import io.meshcontrol.server.relay.RelayRuntime;
import io.meshcontrol.server.relay.VerifyRoute;
import io.meshcontrol.server.tls.Https;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import io.meshcontrol.server.v1.AccessRequestRoutes;
import io.meshcontrol.server.v1.ApiKeyRoutes;
import io.meshcontrol.server.v1.AuditRoutes;
import io.meshcontrol.server.v1.AuthRoutes;
import io.meshcontrol.server.v1.DebugNodeRoutes;
import io.meshcontrol.server.v1.DerpSettingsRoutes;
import io.meshcontrol.server.v1.DnsRoutes;
import io.meshcontrol.server.v1.LogStreamRoutes;
import io.meshcontrol.server.v1.NodeAccessRoutes;
import io.meshcontrol.server.v1.NodeRoutes;
import io.meshcontrol.server.v1.PolicyRoutes;
import io.meshcontrol.server.v1.PostureIntegrationRoutes;
import io.meshcontrol.server.v1.PreAuthKeyRoutes;
import io.meshcontrol.server.v1.ServiceRoutes;
import io.meshcontrol.server.v1.SettingsRoutes;
import io.meshcontrol.server.v1.ServerRoutes;
import io.meshcontrol.server.v1.UserRoutes;
import io.meshcontrol.server.v1.WebhookRoutes;
import io.meshcontrol.server.identity.OidcIssuers;
import io.meshcontrol.server.v1.AppRoutes;
import io.meshcontrol.server.v1.OAuthClientRoutes;
import io.meshcontrol.server.v2.KeyRoutes;
import io.meshcontrol.server.v2.OAuthTokenRoutes;
import io.meshcontrol.server.v2.V2Routes;
import io.meshcontrol.server.v2.WebhookResource;
import io.meshcontrol.server.v2.VendorApi;
import io.meshcontrol.server.v2.VendorAuthentication;
import io.meshcontrol.server.v2.VendorErrors;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.undertow.UndertowOptions;
import io.undertow.server.HttpHandler;
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
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.xnio.OptionMap;
import tools.jackson.databind.json.JsonMapper;

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
    private final AtomicReference<MapContext> mapContext;
    private final AtomicBoolean closed = new AtomicBoolean();
    private final Https https;

    private MeshServer(ServerSettings settings, Routes routes, ControlTransport control, MapSessions mapSessions,
            ScheduledExecutorService housekeeping, PublicListener listener,
            MetricsListener metrics, ExecutorService workers, RelayRuntime relay,
            AtomicReference<MapContext> mapContext, Https https) {
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
     * {@code /api/v1}: problem details and bearer keys; {@code /api/v2}: the vendor's error shape and credentials.
     * Failed credentials count towards their address's back-off on both.
     */
    private static ApiStyles apiStyles(Authenticator credentials, JsonMapper json, FailedCredentials failures) {
        return new ApiStyles(new ApiStyle(new ProblemWriter(json), failures.guarding(credentials)),
                new ApiStyle(new VendorErrors(json), failures.guarding(new VendorAuthentication(credentials))));
    }

    /** Starts the listeners over {@code network}; {@link Application} is the one caller. */
    static MeshServer start(ServerSettings settings, Network network, Clock clock) {
        MachinePrivateKey noiseKey = loadNoiseKey(settings.noiseKeyPath());
        JsonMapper json = ApiJson.mapper(true);
        PrometheusRegistry registry = new PrometheusRegistry();
        HttpMetrics httpMetrics = new HttpMetrics(registry);
        FailedCredentials failedCredentials = new FailedCredentials(clock, registry,
                settings.listener().failedCredentialsPerAddress());
        ExecutorService workers = Executors.newVirtualThreadPerTaskExecutor();
        String localToken = settings.localCredentialPath() == null ? null : "svckey-local-" + RandomText.alphanumeric(40);
        // Names this run on /version, so that a client can tell it from whatever answers on its port after a SIGKILL.
        String instance = RandomText.alphanumeric(16);

        Routes routes = new Routes();
        ServerInfo info = new ServerInfo(settings.version(), network.tailnetId(), settings.serverUrl(), settings.baseDomain());
        new UserRoutes(network.users()).register(routes);
        new ApiKeyRoutes(network.apiKeys(), clock).register(routes);
        new PreAuthKeyRoutes(network.preAuthKeys(), clock).register(routes);
        new OAuthClientRoutes(network.oauthClients()).register(routes);
        new WebhookRoutes(network.webhooks()).register(routes);
        new AppRoutes(network.apps()).register(routes);
        // /api/v2: every operation through one V2Routes, which /api/v2/docs lists.
        V2Routes v2 = new V2Routes(routes, network.tailnetId());
        // ID tokens of workload identities (and OIDC login) are checked against their issuers' published keys.
        OidcIssuers oidcIssuers = new OidcIssuers(settings.derpMaps().egress(), settings.derpMaps().resolver(), clock);
        new OAuthTokenRoutes(network.oauthClients(), oidcIssuers, failedCredentials).register(v2);
        new KeyRoutes(network.preAuthKeys(), network.oauthClients(), clock).register(v2);
        new NodeRoutes(network.nodes(), network.routeApprovals(), network.routeElection(), network.snapshots(), clock)
                .register(routes);
        new SettingsRoutes(network.settings()).register(routes);
        new DnsRoutes(network.dns(), settings.baseDomain()).register(routes);
        new AuditRoutes(network.auditLog()).register(routes);
        new PolicyRoutes(network.policies()).register(routes);
        new AccessRequestRoutes(network.accessRequests(), network.snapshots()).register(routes);
        new LogStreamRoutes(network.logStreams()).register(routes);
        new PostureIntegrationRoutes(network.posture()).register(routes);
        new ServiceRoutes(network.vipServices()).register(routes);
        // OIDC login for people, when oidc.issuer is set: machines' AuthURLs lead to the issuer; browser sessions.
        OidcLogin oidc = settings.oidc().enabled()
                ? new OidcLogin(settings.oidc(), settings.serverUrl(), oidcIssuers, network, clock, settings.branding())
                : null;
        if (oidc != null) {
            oidc.checkIssuer();
            oidc.register(routes);
        }
        new AuthRoutes(network.pendingLogins(), network.routeElection(), network.snapshots(), clock,
                oidc == null ? AuthRoutes.byAdministrator(settings.branding()) : oidc).register(routes);
        new DocsRoutes(settings.version(), settings.debugNodeApi()).register(routes);
        // The browser console: its files, and sign-in with an API key (a session acting as that key).
        KeySessions consoleSessions = new KeySessions(new Authenticator(network.apiKeys(), network.oauthClients(),
                localToken), settings.serverUrl(), clock);
        new ConsoleSignIn(consoleSessions, Optional.ofNullable(oidc).map(OidcLogin::sessionCookies),
                settings.branding(), failedCredentials).register(routes);
        new ConsoleRoutes().register(routes);
        if (settings.debugNodeApi()) {
            new DebugNodeRoutes(network, clock).register(routes);
        }
        new VendorApi(network, settings.baseDomain(), settings.version(), clock).register(v2);
        new WebhookResource(network.webhooks()).register(v2);
        // One pipeline of stages (metrics, worker dispatch, error ids, authentication) for /api/v1 and /machine/*.
        RequestPipeline pipeline = new RequestPipeline(httpMetrics, workers);
        ControlTransport control = new ControlTransport(noiseKey, pipeline, clock);
        control.register(routes);
        // External derpers ask here whether a client may relay (their --verify-client-url), relay on or off.
        new VerifyRoute(network).register(routes);
        RelayRuntime relay = RelayRuntime.create(settings, network, routes, clock);
        new ServerRoutes(info, instance, network::databaseReachable, () -> relay.relay().stunProblem()).register(routes);
        RelayMetrics.register(registry, () -> relay.relay().derp());
        new DerpSettingsRoutes(relay.configuration(), relay.relay(), network.snapshots()).register(routes);
        // The DERP map names the listener's port, known once it is bound; until the relay publishes it maps have none.
        AtomicReference<MapContext> mapContext = new AtomicReference<>(new MapContext(network.tailnetId(),
                settings.baseDomain(), MapContexts.dns(network.dns().current(), settings.baseDomain(),
                        settings.control().extraRecords()),
                new DERPMap(null, Map.of(), false), new ServiceHosting(network.vipServices().current()), null,
                settings.control().dialPlan(), null, settings.httpsCertificates().enabled())
                .withApps(network.apps().current()));
        network.vipServices().onChange(services -> {
            mapContext.updateAndGet(context -> context.withServices(new ServiceHosting(services)));
            network.snapshots().mapContextChanged();
        });
        network.apps().onChange(apps -> {
            mapContext.updateAndGet(context -> context.withApps(apps));
            network.snapshots().mapContextChanged();
        });
        network.dns().onChange(dns -> {
            mapContext.updateAndGet(context -> context.withDnsConfig(MapContexts.dns(dns, settings.baseDomain(),
                    settings.control().extraRecords())));
            network.snapshots().mapContextChanged();
        });
        AccessControl accessControl = new AccessControl(network.policies(), settings.serverUrl(), settings.funnel(),
                settings.recordingFailuresReported());
        MapInputs.Source mapInputs = new MapInputs.Source(network, accessControl, mapContext::get, clock);
        MapSessions mapSessions = new MapSessions(network.snapshots(), mapInputs,
                settings.control().keepAlive(), new MapMetrics(registry));
        // A node's peers and packet filter as its map carries them, and the policy preview.
        new NodeAccessRoutes(network.nodes(), network.policies(), mapInputs).register(routes);
        ScheduledExecutorService housekeeping = Housekeeping.start(network, settings.control().ephemeralInactivityTimeout());
        // Routers sharing a prefix are probed over their control connection (high availability).
        MeshConfig.Routes ha = settings.control().routes();
        RouterProbes probes = new RouterProbes(mapSessions, network.routeElection(), settings.serverUrl(),
                ha.haProbeTimeout(), housekeeping).every(ha.ha() ? ha.haProbeInterval() : Duration.ZERO);
        control.machineRoutes()
                .add("POST", "/machine/register", new RegisterEndpoint(network, settings.serverUrl(), clock))
                .add("POST", "/machine/map", new MapEndpoint(network, mapSessions))
                .add("POST", SSHEventNotifyRequest.NOTIFY_PATH, new SshRecordingFailureEndpoint(network.nodes()))
                .add("HEAD", RouterProbes.ANSWER_PATH, new ProbeAnswerEndpoint(network, probes))
                .add("POST", SetDNSRequest.PATH, new SetDnsEndpoint(network, mapContext::get, ChallengeRecords.from(
                        settings.httpsCertificates(), settings.baseDomain(), clock, housekeeping), clock));
        var updates = settings.control().clientUpdates();
        if (updates.check()) {
            new ClientReleases(updates.url(), settings.derpMaps().egress(), settings.derpMaps().resolver())
                    .schedule(housekeeping, updates.interval(), release -> {
                        if (!release.equals(mapContext.get().latestClientVersion())) {
                            mapContext.updateAndGet(context -> context.withLatestClientVersion(release));
                            network.snapshots().mapContextChanged();
                        }
                    });
        }

        // HTTPS when the configuration names a certificate or an ACME host name: the relay is then on server_url too.
        Https https = Https.from(settings.tls(), settings.listener(), clock);
        PublicListener.Setup main = new PublicListener.Setup(settings.listenHost(), settings.listenPort(), https.context(),
                routes.build(pipeline, apiStyles(new Authenticator(network.apiKeys(), network.oauthClients(),
                        localToken, oidc == null ? consoleSessions : consoleSessions.orElse(oidc.sessionCookies())), json,
                        failedCredentials),
                        json, settings.version()),
                OptionMap.builder()
                        .set(UndertowOptions.MAX_ENTITY_SIZE, Routes.LISTENER_ENTITY_LIMIT)
                        .getMap(),
                Math.max(Runtime.getRuntime().availableProcessors(), 2), settings.listener());
        MetricsListener metrics = null;
        PublicListener listener = null;
        try {
            // Metrics first: once the main listener answers, everything about it can be scraped.
            if (settings.metricsHost() != null) {
                Map<String, HttpHandler> debugPages = new HashMap<>(Map.of("/debug/derp-clients/",
                        new DerpClientsPage(() -> relay.relay().active().orElse(null), network.snapshots(), clock)));
                debugPages.putAll(new DebugPages(new DebugPages.Sources(settings.version(), clock, network,
                        mapSessions, accessControl, mapContext::get)).handlers(Map.of(
                        "/debug/routes/", "per-region and tailnet-wide route primaries",
                        "/debug/derp-clients/", "machines connected to the embedded relay")));
                debugPages.put("/debug/routes/", new RoutesPage(network.routeElection(), network.snapshots()));
                metrics = MetricsListener.start(new HostPort(settings.metricsHost(), settings.metricsPort()),
                        settings.listener(), registry, debugPages, settings.debugAccess());
            }
            listener = PublicListener.start(main);
            https.start();
            httpMetrics.watch(listener);
            int bound = listener.address().getPort();
            relay.start(bound, map -> {
                mapContext.updateAndGet(context -> context.withDerpMap(map));
                network.snapshots().mapContextChanged();
            });
            MeshServer server = new MeshServer(settings, routes, control, mapSessions, housekeeping, listener, metrics,
                    workers, relay, mapContext, https);
            if (localToken != null) {
                LocalAccess.ofThisProcess(server.localUrl().toString(), localToken, instance)
                        .write(settings.localCredentialPath());
            }
            LOG.log(Level.INFO, "listening on " + server.localUrl() + server.metricsAddress()
                    .map(a -> ", metrics on http://" + a.getHostString() + ":" + a.getPort() + "/metrics").orElse("")
                    + relay.describe());
            return server;
        } catch (IOException | RuntimeException e) {
            https.close();
            stopAll(mapSessions, housekeeping, workers, relay, listener, metrics);
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

    /** The map context every map is built from now (DNS, the DERP map with the embedded region). */
    public MapContext mapContext() {
        return mapContext.get();
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

    /** Stops everything a server started, in an order that cannot hang (also when starting failed half-way). */
    private static void stopAll(MapSessions mapSessions, ScheduledExecutorService housekeeping, ExecutorService workers,
            RelayRuntime relay, PublicListener listener, MetricsListener metrics) {
        mapSessions.close();
        housekeeping.shutdownNow();
        // Interrupt the request threads first: a registration follow-up waits up to 15 minutes for a login, and
        // Undertow's stop waits for requests in flight.
        workers.shutdownNow();
        relay.close();
        if (listener != null) {
            listener.close(SHUTDOWN_GRACE);
        }
        if (metrics != null) {
            metrics.close();
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
