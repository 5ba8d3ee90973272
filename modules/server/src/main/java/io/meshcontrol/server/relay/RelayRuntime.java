package io.meshcontrol.server.relay;

import io.meshcontrol.core.GoDuration;
import io.meshcontrol.core.MeshException;
import io.meshcontrol.core.model.DerpSettings;
import io.meshcontrol.core.state.FetchedDocuments;
import io.meshcontrol.core.state.Lease;
import io.meshcontrol.core.state.SavedDerpSettings;
import io.meshcontrol.core.state.Snapshots;
import io.meshcontrol.core.wire.DERPMap;
import io.meshcontrol.relay.map.DerpMapSources;
import io.meshcontrol.relay.map.MapSourceException;
import io.meshcontrol.relay.map.MapUrlFetcher;
import io.meshcontrol.server.http.Routes;
import java.lang.System.Logger.Level;
import java.net.URI;
import java.time.Clock;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.Consumer;

/**
 * Everything of the relay a server wires together: the embedded relay, the map sources, the runtime DERP settings and
 * {@code /bootstrap-dns}, with one background thread for refetching maps and resolving names.
 */
public final class RelayRuntime implements AutoCloseable {

    /**
     * What the relay takes from the server's settings.
     *
     * @param serverUrl the server's public URL: its host names the relay, its scheme says whether the relay needs a TLS
     *                  port of its own
     * @param listenPort the main listener's configured port; 0 (a free port) is published as bound
     */
    public record Setup(RelaySettings relay, DerpMapSettings derpMaps, String serverUrl, int listenPort) {
    }

    private static final System.Logger LOG = System.getLogger(RelayRuntime.class.getName());

    private final EmbeddedRelay relay;
    private final BootstrapDnsCache bootstrapDns;
    private final ScheduledExecutorService scheduler;
    private final Setup settings;
    private final DerpConfiguration configuration;
    private final Clock clock;
    private volatile int boundPort = -1;
    private volatile Consumer<DERPMap> publish = map -> { };

    private RelayRuntime(Setup settings, SavedDerpSettings saved, Snapshots snapshots, DerpMapSources sources,
            Clock clock, ScheduledExecutorService scheduler, FetchedDocuments documents, Lease lease) {
        this.settings = settings;
        this.scheduler = scheduler;
        this.clock = clock;
        this.relay = new EmbeddedRelay(settings.relay(), snapshots, scheduler, this::republish);
        this.bootstrapDns = new BootstrapDnsCache(URI.create(settings.serverUrl()).getHost(),
                settings.derpMaps().resolver(), scheduler);
        URI serverUrl = URI.create(settings.serverUrl());
        this.configuration = new DerpConfiguration(saved, defaults(settings), sources, relay,
                derpSettings -> boundPort < 0 ? java.util.Optional.empty()
                        : relay.region(serverUrl, settings.listenPort() == 0, boundPort, derpSettings),
                map -> {
                    publish.accept(map);
                    bootstrapDns.mapChanged(map);
                }, scheduler, documents, lease);
    }

    /**
     * Reads the map files (a file that cannot be used stops the start, naming it) and registers the relay's routes.
     * Nothing is bound and nothing is fetched until {@link #start}.
     *
     * @param saved the DERP settings saved through the API, in force over the configuration's
     * @param snapshots the nodes the relay serves ({@code verify_clients})
     * @param clock dates the certificate of the relay's own TLS port
     * @param documents where the maps fetched from map URLs are kept for every instance
     * @param lease the singleton lease, where the scheduled refresh of map URLs runs
     */
    public static RelayRuntime create(Setup settings, SavedDerpSettings saved, Snapshots snapshots,
            Routes routes, Clock clock, FetchedDocuments documents, Lease lease) {
        ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor(
                Thread.ofPlatform().name("derp-maps").daemon().factory());
        DerpMapSources sources;
        try {
            sources = new DerpMapSources(new MapUrlFetcher(settings.derpMaps().egress(), settings.derpMaps().resolver()),
                    settings.derpMaps().paths());
        } catch (MapSourceException e) {
            scheduler.shutdownNow();
            throw MeshException.invalid(e.getMessage());
        }
        RelayRuntime runtime = new RelayRuntime(settings, saved, snapshots, sources, clock, scheduler, documents,
                lease);
        runtime.relay.register(routes, runtime.bootstrapDns);
        return runtime;
    }

    /**
     * Puts the DERP settings in force once the main listener is bound (the embedded region names its port).
     *
     * @param publish receives every new DERP map
     */
    public void start(int boundPort, Consumer<DERPMap> publish) {
        URI serverUrl = URI.create(settings.serverUrl());
        if ("http".equalsIgnoreCase(serverUrl.getScheme())) {
            // Stock clients speak DERP over TLS only: a plain-HTTP server gives its relay a TLS port of its own.
            relay.serveOverTls(serverUrl.getHost().replaceAll("^\\[|\\]$", ""), clock);
        }
        this.boundPort = boundPort;
        this.publish = publish;
        configuration.start();
    }

    /** The configuration file's DERP settings: in force until settings are saved, and again after a reset. */
    static DerpSettings defaults(Setup settings) {
        RelaySettings r = settings.relay();
        DerpMapSettings maps = settings.derpMaps();
        return new DerpSettings(maps.urls(), maps.autoUpdate(), maps.updateFrequency(), r.enabled(),
                r.ipv4().orElse(null), r.ipv6().orElse(null), r.verifyClients(), r.stunEnabled(), r.stunListenAddr(),
                java.util.List.of());
    }

    private void republish() {
        configuration.republish();
    }

    public EmbeddedRelay relay() {
        return relay;
    }

    public DerpConfiguration configuration() {
        return configuration;
    }

    public BootstrapDnsCache bootstrapDns() {
        return bootstrapDns;
    }

    /** A one-line summary for the start-up log. */
    public String describe() {
        if (!relay.enabled()) {
            return ", embedded DERP relay off";
        }
        DerpSettings s = configuration.current().settings();
        String stun = relay.stunPort() > 0 ? ", STUN on udp port " + relay.stunPort()
                : relay.stunProblem().map(problem -> ", STUN unavailable (" + problem + ")").orElse(", STUN off");
        return ", DERP relay on /derp" + (relay.tlsPort() > 0 ? " and on TLS port " + relay.tlsPort() : "") + stun
                + (s.urls().isEmpty() ? "" : ", DERP map URLs refreshed every " + GoDuration.format(s.updateFrequency()));
    }

    @Override
    public void close() {
        configuration.stop();
        scheduler.shutdownNow();
        relay.close();
        LOG.log(Level.DEBUG, "relay stopped");
    }
}
