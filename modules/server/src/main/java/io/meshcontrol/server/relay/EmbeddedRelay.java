package io.meshcontrol.server.relay;

import io.meshcontrol.core.state.Snapshots;
import io.meshcontrol.core.GoDuration;
import io.meshcontrol.core.MeshException;
import io.meshcontrol.core.config.HostPort;
import io.meshcontrol.core.key.MachinePrivateKey;
import io.meshcontrol.core.key.NodePrivateKey;
import io.meshcontrol.core.key.NodePublicKey;
import io.meshcontrol.core.model.DerpSettings;
import io.meshcontrol.core.wire.DERPNode;
import io.meshcontrol.relay.derp.DerpServer;
import io.meshcontrol.relay.derp.MeshKey;
import io.meshcontrol.relay.derp.MeshLink;
import io.meshcontrol.relay.map.EmbeddedRegion;
import io.meshcontrol.relay.stun.StunServer;
import io.meshcontrol.relay.tls.RelayCertificate;
import io.meshcontrol.server.http.Routes;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocketFactory;

/**
 * The relay this server runs itself: DERP on the main listener (and, for a plain-HTTP server, on a TLS port of its
 * own), STUN on its own UDP socket. Its switches (on or off, client verification, STUN and its address) change at
 * runtime with the DERP settings: a change is first {@linkplain #prepare prepared} (binding a new STUN socket, the step
 * that can fail) and then {@linkplain #apply applied}, so a refused change leaves the relay as it was.
 *
 * <p>At start a STUN address that cannot be bound (the port busy) does not stop the server: STUN is reported
 * unavailable and the bind is retried every {@link RelaySettings#stunRetry}.
 */
public final class EmbeddedRelay implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(EmbeddedRelay.class.getName());
    /** The file of the TLS port's certificate, beside the relay key. */
    static final String CERTIFICATE_FILE = "derp_server_tls.pem";

    private final RelaySettings config;
    private final Snapshots snapshots;
    private final ScheduledExecutorService scheduler;
    private final Runnable stunBound;
    private volatile DerpServer derp;
    private volatile boolean enabled;
    private volatile boolean verifyClients;
    private StunServer stun;
    private String stunAddress;
    /** The STUN address that could not be bound at start and is being retried, with why it failed. */
    private String unavailableStunAddress;
    private String stunProblem;
    private ScheduledFuture<?> stunRetry;
    private DerpRoutes routes;
    /** The host a plain-HTTP server's relay TLS port is for, and the clock its certificate is dated by; else null. */
    private String tlsHost;
    private Clock tlsClock;
    private volatile RelayTlsPort tlsPort;
    private final List<MeshLink> meshLinks = new java.util.concurrent.CopyOnWriteArrayList<>();

    /**
     * @param scheduler runs the STUN bind retries
     * @param stunBound told when a retried STUN bind succeeded (the published region now names the port)
     */
    public EmbeddedRelay(RelaySettings config, Snapshots snapshots, ScheduledExecutorService scheduler,
            Runnable stunBound) {
        this.config = config;
        this.snapshots = snapshots;
        this.scheduler = scheduler;
        this.stunBound = stunBound;
    }

    /**
     * Puts the settings in force at start. Unlike a change, a STUN address that cannot be bound is not refused: the
     * relay runs without STUN, says so, and tries again every {@code stunRetry} until it binds or the settings change.
     */
    public synchronized void start(DerpSettings settings) {
        try {
            apply(prepareOrFail(settings));
        } catch (StunUnavailable e) {
            apply(new Change(settings, null));
            unavailableStunAddress = settings.stunListenAddr();
            stunProblem = e.getMessage();
            LOG.log(System.Logger.Level.WARNING, e.getMessage() + "; the server runs without STUN and tries again every "
                    + GoDuration.format(config.stunRetry()));
            long period = config.stunRetry().toMillis();
            stunRetry = scheduler.scheduleWithFixedDelay(this::retryStun, period, period, TimeUnit.MILLISECONDS);
        }
    }

    private void retryStun() {
        synchronized (this) {
            if (unavailableStunAddress == null) {
                return;
            }
            try {
                stun = bindStun(unavailableStunAddress);
            } catch (StunUnavailable e) {
                stunProblem = e.getMessage();
                return;
            }
            stunAddress = unavailableStunAddress;
            LOG.log(System.Logger.Level.INFO, "STUN is available again on udp port " + stun.address().getPort());
            stopRetryingStun();
        }
        stunBound.run();
    }

    private void stopRetryingStun() {
        unavailableStunAddress = null;
        stunProblem = null;
        if (stunRetry != null) {
            stunRetry.cancel(false);
            stunRetry = null;
        }
    }

    /** Why STUN is not answering although the settings have it on (its address could not be bound), if so. */
    public synchronized Optional<String> stunProblem() {
        return Optional.ofNullable(stunProblem);
    }

    /** A STUN address that cannot be bound: refused for a change, retried at start. */
    private static final class StunUnavailable extends RuntimeException {
        StunUnavailable(String message) {
            super(message, null, false, false);
        }
    }

    /**
     * What a settings change will do to the relay, with its new STUN socket already bound.
     *
     * @param newStun a socket bound for this change, or null when the current one stays (or STUN goes off)
     */
    public record Change(DerpSettings settings, StunServer newStun) {

        /** The change will not be applied: release what it bound. */
        public void abandon() {
            if (newStun != null) {
                newStun.close();
            }
        }
    }

    /**
     * Binds what {@code settings} need and nothing else changes yet. A STUN address already bound stays bound (a
     * port 0 address keeps its port).
     *
     * @throws MeshException when the STUN address cannot be bound, or the relay key cannot be loaded
     */
    public synchronized Change prepare(DerpSettings settings) {
        try {
            return prepareOrFail(settings);
        } catch (StunUnavailable e) {
            throw MeshException.invalid(e.getMessage());
        }
    }

    private Change prepareOrFail(DerpSettings settings) {
        boolean wantStun = settings.relayEnabled() && settings.stunEnabled();
        if (settings.relayEnabled()) {
            derpServer();
            if (tlsHost != null && tlsPort == null) {
                openTlsPort();
            }
        }
        if (!wantStun || stun != null && settings.stunListenAddr().equals(stunAddress)
                || settings.stunListenAddr().equals(unavailableStunAddress)) {
            // The address being retried stays in retry: a change of other settings is not refused for it.
            return new Change(settings, null);
        }
        return new Change(settings, bindStun(settings.stunListenAddr()));
    }

    private static StunServer bindStun(String address) {
        HostPort listen = HostPort.parse(address);
        try {
            return StunServer.start(new InetSocketAddress(listen.host(), listen.port()));
        } catch (IOException e) {
            throw new StunUnavailable("cannot bind STUN on " + address + ": " + e.getMessage());
        }
    }

    /**
     * Makes a prepared change take effect. Turning the relay off disconnects every client; turning verification on
     * disconnects clients whose node keys this network does not know. Clients reconnect to another relay.
     */
    public synchronized void apply(Change change) {
        DerpSettings settings = change.settings();
        boolean wasEnabled = enabled;
        boolean wasVerifying = verifyClients;
        verifyClients = settings.verifyClients();
        enabled = settings.relayEnabled();
        if (change.newStun() != null) {
            closeStun();
            stopRetryingStun();
            stun = change.newStun();
            stunAddress = settings.stunListenAddr();
        } else if (!(settings.relayEnabled() && settings.stunEnabled())) {
            closeStun();
            stopRetryingStun();
        }
        DerpServer server = derp;
        if (server == null) {
            return;
        }
        if (wasEnabled && !enabled) {
            server.dropClients(key -> true, "the embedded relay was turned off");
        } else if (enabled && verifyClients && !wasVerifying) {
            server.dropClients(key -> !isKnown(key), "client verification was turned on and the node key is unknown");
        }
    }

    private void closeStun() {
        if (stun != null) {
            stun.close();
            stun = null;
            stunAddress = null;
        }
    }

    /** The relay server, created with its key the first time the relay is turned on. */
    private DerpServer derpServer() {
        if (derp == null) {
            derp = new DerpServer(loadKey(config), key -> !verifyClients || isKnown(key), loadMeshKey(config));
            startMesh(derp);
        }
        return derp;
    }

    /** One link to each other relay of the mesh; the entry that is this relay finds itself and stops. */
    private void startMesh(DerpServer server) {
        if (!config.mesh().enabled()) {
            return;
        }
        SSLSocketFactory tls;
        try {
            tls = SSLContext.getDefault().getSocketFactory();
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException("no TLS for the relay mesh", e);
        }
        for (URI peer : config.mesh().relays()) {
            MeshLink link = new MeshLink(server, peer, config.mesh().retry(), tls);
            meshLinks.add(link);
            link.start();
        }
    }

    /** The links to the other relays of the mesh (one per {@code derp.server.mesh_with} entry). */
    public List<MeshLink> meshLinks() {
        return List.copyOf(meshLinks);
    }

    private static MeshKey loadMeshKey(RelaySettings config) {
        if (config.mesh().keyPath().isEmpty()) {
            return null;
        }
        Path file = config.mesh().keyPath().get();
        try {
            return MeshKey.load(file);
        } catch (IOException e) {
            throw MeshException.invalid("cannot read the DERP mesh key (derp.server.mesh_key_path): "
                    + e.getMessage());
        }
    }

    /** The check reads the current snapshot, so a node registered a moment ago is admitted at once. */
    private boolean isKnown(NodePublicKey key) {
        return snapshots.current().nodeByKey(key).isPresent();
    }

    /** The relay key is a node key in Tailscale's terms; its file has the same {@code privkey:} form as the Noise key. */
    private static NodePrivateKey loadKey(RelaySettings config) {
        if (config.privateKeyPath() == null) {
            throw MeshException.invalid("the embedded relay cannot run here: it has no key file "
                    + "(derp.server.private_key_path)");
        }
        try {
            return NodePrivateKey.fromRaw(MachinePrivateKey.loadOrCreate(config.privateKeyPath()).bytes());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot load or create the relay key " + config.privateKeyPath() + ": "
                    + e.getMessage(), e);
        }
    }

    /** {@code /derp}, its probes and {@code /bootstrap-dns}; they answer 404 while the relay is off. */
    public synchronized void register(Routes routes, BootstrapDnsCache bootstrapDns) {
        this.routes = new DerpRoutes(this::activeServer, bootstrapDns);
        this.routes.register(routes);
    }

    /**
     * For a server reached over plain HTTP: from the first time the relay is on, its endpoints are served on
     * {@link RelaySettings#tlsListenAddr} too (and stay there; they answer 404 while the relay is off).
     *
     * @param host the server URL's host, which the certificate names and clients dial
     */
    public synchronized void serveOverTls(String host, Clock clock) {
        this.tlsHost = host;
        this.tlsClock = clock;
    }

    /**
     * Binds the TLS port with the self-signed certificate kept beside the relay key (made the first time, and again
     * should it not name the host), so that its pin in the DERP map stays the same across restarts.
     */
    private void openTlsPort() {
        Path file = config.privateKeyPath().toAbsolutePath().resolveSibling(CERTIFICATE_FILE);
        RelayCertificate certificate;
        try {
            certificate = RelayCertificate.loadOrCreate(file, tlsHost, tlsClock.instant());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot load or create the relay's TLS certificate " + file + ": "
                    + e.getMessage(), e);
        }
        try {
            tlsPort = RelayTlsPort.start(config, tlsHost, certificate, routes.handler());
        } catch (IllegalStateException e) {
            throw MeshException.invalid(e.getMessage() + " (derp.server.tls_listen_addr)");
        }
    }

    /** The bound TLS port of a plain-HTTP server, or -1 when the relay is served on the main listener only. */
    public int tlsPort() {
        RelayTlsPort port = tlsPort;
        return port == null ? -1 : port.port();
    }

    public boolean enabled() {
        return enabled;
    }

    /** The relay server while the relay is on. */
    public Optional<DerpServer> active() {
        return Optional.ofNullable(activeServer());
    }

    private DerpServer activeServer() {
        return enabled ? derp : null;
    }

    /** The relay server, on or off; null until the relay was first turned on. */
    public DerpServer derp() {
        return derp;
    }

    /** The bound STUN port, or -1 when STUN is off. */
    public synchronized int stunPort() {
        return stun == null ? DERPNode.STUN_DISABLED : stun.address().getPort();
    }

    /**
     * The region to publish under {@code settings}, once the main listener is bound; empty until the relay first runs.
     * Turned off after that, it stays in the map marked as no home ({@link EmbeddedRegion#off}), so that clients take
     * it up again as soon as it is back.
     */
    public Optional<EmbeddedRegion> region(URI serverUrl, boolean listenerOnPortZero, int boundPort,
            DerpSettings settings) {
        if (derp == null || !config.publishRegion()) {
            return Optional.empty();
        }
        RelayTlsPort tls = tlsPort;
        EmbeddedRegion.Endpoint endpoint = tls == null
                ? EmbeddedRegion.Endpoint.https(serverUrl, listenerOnPortZero, boundPort)
                : EmbeddedRegion.Endpoint.pinned(tls.host(), tls.port(), tls.pin());
        List<EmbeddedRegion.Endpoint> meshNodes = config.mesh().enabled()
                ? config.mesh().published().stream().map(EmbeddedRegion.Endpoint::meshNode).toList() : List.of();
        return Optional.of(new EmbeddedRegion(config.regionId(), config.regionCode(), config.regionName(), endpoint,
                stunPort(), Optional.ofNullable(blankToNull(settings.ipv4())),
                Optional.ofNullable(blankToNull(settings.ipv6())), !enabled, meshNodes));
    }

    public int regionId() {
        return config.regionId();
    }

    private static String blankToNull(String text) {
        return text == null || text.isBlank() ? null : text;
    }

    @Override
    public synchronized void close() {
        enabled = false;
        if (tlsPort != null) {
            tlsPort.close();
        }
        meshLinks.forEach(MeshLink::close);
        if (derp != null) {
            derp.close();
        }
        stopRetryingStun();
        closeStun();
    }
}
