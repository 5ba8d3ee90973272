package io.meshcontrol.server;

import io.meshcontrol.core.address.EgressGuard;
import io.meshcontrol.core.config.HostPort;
import io.meshcontrol.core.config.MeshConfig;
import io.meshcontrol.core.wire.DERPMap;
import io.meshcontrol.core.wire.DNSConfig;
import io.meshcontrol.relay.map.MapUrlFetcher;
import io.meshcontrol.server.control.MapContexts;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What the HTTP side of a server needs to start, taken from the configuration.
 *
 * @param listenHost host or address of the main listener; port 0 binds a free port
 * @param metricsHost host of the metrics listener, or null to run none
 * @param localCredentialPath where to leave the local CLI credential, or null for none
 * @param noiseKeyPath the server's Noise (ts2021) private key file, created on first start; clients pin its public
 *                     half, so it must survive restarts
 */
public record ServerSettings(
        String listenHost,
        int listenPort,
        String metricsHost,
        int metricsPort,
        String serverUrl,
        String baseDomain,
        String version,
        Path localCredentialPath,
        Path noiseKeyPath,
        Control control,
        Relay relay,
        DerpMaps derpMaps) {

    /** Settings without the embedded relay, as most tests want them. */
    public ServerSettings(String listenHost, int listenPort, String metricsHost, int metricsPort, String serverUrl,
            String baseDomain, String version, Path localCredentialPath, Path noiseKeyPath, Control control) {
        this(listenHost, listenPort, metricsHost, metricsPort, serverUrl, baseDomain, version, localCredentialPath,
                noiseKeyPath, control, Relay.OFF);
    }

    /** Settings with a relay and no map URLs or files, as relay tests want them. */
    public ServerSettings(String listenHost, int listenPort, String metricsHost, int metricsPort, String serverUrl,
            String baseDomain, String version, Path localCredentialPath, Path noiseKeyPath, Control control,
            Relay relay) {
        this(listenHost, listenPort, metricsHost, metricsPort, serverUrl, baseDomain, version, localCredentialPath,
                noiseKeyPath, control, relay, DerpMaps.NONE);
    }

    /**
     * Where the DERP map comes from besides {@link Control#derpMap} and the embedded relay: the defaults of the
     * runtime DERP settings ({@code derp.urls}, {@code derp.auto_update_enabled}, {@code derp.update_frequency}),
     * the map files ({@code derp.paths}, file only), the guard on fetching URLs ({@code egress.*}) and how host names
     * are resolved (map URLs, {@code /bootstrap-dns}).
     */
    public record DerpMaps(List<String> urls, List<Path> paths, boolean autoUpdate, Duration updateFrequency,
                           EgressGuard egress, MapUrlFetcher.Resolver resolver) {

        /**
         * No URLs, no files, no name lookups (relay host names are not resolved for {@code /bootstrap-dns}): only the
         * server's own relays. What tests use, so that nothing reaches the internet, not even a DNS query.
         */
        public static final DerpMaps NONE = forTests(List.of(), List.of(), EgressGuard.DEFAULT);

        /** Map sources for a test: IP-literal hosts only ({@link MapUrlFetcher.Resolver#literalsOnly()}). */
        public static DerpMaps forTests(List<String> urls, List<Path> paths, EgressGuard egress) {
            return new DerpMaps(urls, paths, true, Duration.ofHours(24), egress, MapUrlFetcher.Resolver.literalsOnly());
        }

        public DerpMaps {
            urls = List.copyOf(urls);
            paths = List.copyOf(paths);
        }

        static DerpMaps from(MeshConfig config) {
            MeshConfig.Derp derp = config.derp();
            return new DerpMaps(derp.urls(), derp.paths(), derp.autoUpdateEnabled(), derp.updateFrequency(),
                    new EgressGuard(config.egress().denyPrivateTargets(), config.egress().allowLoopbackTargets()),
                    MapUrlFetcher.Resolver.system());
        }
    }

    /**
     * The embedded relay ({@code derp.server.*}).
     *
     * @param enabled whether the relay runs at first ({@code derp.server.enabled}; the runtime DERP settings may change it)
     * @param publishRegion whether the relay's region is added to the map while it runs
     *                      ({@code derp.automatically_add_embedded_derp_region})
     * @param stunListenAddr host:port for STUN; port 0 binds a free port, which is what gets published
     * @param tlsListenAddr host:port of the relay's own TLS port, used when {@code server_url} is plain HTTP (stock
     *                      clients speak DERP over TLS only); port 0 binds a free port, which is published
     * @param stunRetry how long after a failed STUN bind at start (the port busy) the bind is tried again
     */
    public record Relay(boolean enabled, boolean publishRegion, int regionId, String regionCode, String regionName,
                        boolean verifyClients, boolean stunEnabled, String stunListenAddr, Path privateKeyPath,
                        Optional<String> ipv4, Optional<String> ipv6, String tlsListenAddr, Duration stunRetry) {

        /** The relay's TLS port when {@code derp.server.tls_listen_addr} is not set: 3340 on the main listener's host. */
        public static final int DEFAULT_TLS_PORT = 3340;
        public static final Duration DEFAULT_STUN_RETRY = Duration.ofSeconds(30);

        public static final Relay OFF = new Relay(false, false, 999, "svc", "Mesh Control embedded relay", true, false,
                "0.0.0.0:3478", null, Optional.empty(), Optional.empty(), "127.0.0.1:0", DEFAULT_STUN_RETRY);

        /** The relay on, published, STUN and TLS on free loopback ports, key in {@code keyPath}: what tests use. */
        public static Relay forTests(Path keyPath, boolean verifyClients) {
            return new Relay(true, true, 999, "svc", "Mesh Control embedded relay", verifyClients, true,
                    "127.0.0.1:0", keyPath, Optional.empty(), Optional.empty(), "127.0.0.1:0", DEFAULT_STUN_RETRY);
        }

        /** These settings with STUN on {@code stunListenAddr}, retried every {@code retry} while it cannot bind. */
        public Relay withStun(String stunListenAddr, Duration retry) {
            return new Relay(enabled, publishRegion, regionId, regionCode, regionName, verifyClients, stunEnabled,
                    stunListenAddr, privateKeyPath, ipv4, ipv6, tlsListenAddr, retry);
        }

        static Relay from(MeshConfig.Derp derp, String listenHost) {
            MeshConfig.DerpServer s = derp.server();
            String tls = s.tlsListenAddr().orElse(new HostPort(listenHost, DEFAULT_TLS_PORT).toString());
            // Published whenever it runs: the relay may be turned on at runtime although the file has it off.
            return new Relay(s.enabled(), derp.automaticallyAddEmbeddedDerpRegion(), s.regionId(),
                    s.regionCode(), s.regionName(), s.verifyClients(), s.stunEnabled(), s.stunListenAddr(),
                    s.privateKeyPath(), s.ipv4(), s.ipv6(), tls, DEFAULT_STUN_RETRY);
        }
    }

    /**
     * What the control protocol serves besides nodes.
     *
     * @param derpMap relays every map carries, merged under the map URLs, files and the embedded relay (tests and
     *                harnesses put external relays here)
     * @param keepAlive how often an idle map stream gets a keep-alive (clients give up after 120 s of silence)
     * @param ephemeralInactivityTimeout how long an ephemeral node may stay offline before it is removed
     */
    public record Control(DNSConfig dns, DERPMap derpMap, Duration keepAlive, Duration ephemeralInactivityTimeout) {

        public static final Duration DEFAULT_KEEP_ALIVE = Duration.ofSeconds(50);

        /** MagicDNS for {@code baseDomain}, no relays, the usual keep-alive, ephemeral nodes kept 30 minutes. */
        public static Control defaults(String baseDomain) {
            return new Control(DNSConfig.builder().domains(java.util.List.of(baseDomain)).proxied(true).build(),
                    new DERPMap(null, Map.of(), false), DEFAULT_KEEP_ALIVE, Duration.ofMinutes(30));
        }
    }

    public static ServerSettings from(MeshConfig config, String version) {
        HostPort listen = HostPort.parse(config.listenAddr());
        HostPort metrics = config.metricsListenAddr().map(HostPort::parse).orElse(null);
        return new ServerSettings(listen.host(), listen.port(), metrics == null ? null : metrics.host(),
                metrics == null ? 0 : metrics.port(), config.serverUrl(), config.dns().baseDomain(), version,
                config.cli().localCredentialPath(), config.noise().privateKeyPath(),
                new Control(MapContexts.dns(config.dns()), new DERPMap(null, Map.of(), false),
                        Control.DEFAULT_KEEP_ALIVE, config.node().ephemeral().inactivityTimeout()),
                Relay.from(config.derp(), listen.host()), DerpMaps.from(config));
    }
}
