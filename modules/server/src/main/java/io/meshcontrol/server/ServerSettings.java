package io.meshcontrol.server;

import io.meshcontrol.api.LocalAccess;
import io.meshcontrol.core.address.EgressGuard;
import io.meshcontrol.core.config.HostPort;
import io.meshcontrol.core.config.MeshConfig;
import io.meshcontrol.relay.map.MapUrlFetcher;
import io.meshcontrol.server.listener.ListenerLimits;
import io.meshcontrol.server.login.Branding;
import io.meshcontrol.server.metrics.DebugAccess;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * What the HTTP side of a server needs to start, taken from the configuration by {@link Application}.
 *
 * @param listenHost host or address of the main listener; port 0 binds a free port
 * @param metricsHost host of the metrics listener, or null to run none
 * @param localCredentialPath where to leave the local CLI credential, or null for none
 * @param noiseKeyPath the server's Noise (ts2021) private key file, created on first start; clients pin its public
 *                     half, so it must survive restarts
 * @param listener the timeouts and the per-address cap of the listeners facing the network
 * @param oidc OIDC login for people ({@code oidc.*}); on when its issuer is set
 * @param tls HTTPS on the main listener: a certificate from files or by ACME ({@code tls_*}, {@code acme_*}); off
 *            when neither is set
 * @param debugAccess who may read the debug pages of the metrics listener (besides localhost)
 * @param debugNodeApi whether {@code POST /api/v1/debug/node} is served ({@code debug.node_api_enabled})
 * @param funnel whether nodes the policy gives the {@code funnel} attribute get it ({@code funnel.enabled})
 * @param recordingFailuresReported whether nodes report failed SSH recordings ({@code ssh_recording.notify_failures})
 * @param branding the name and logo on the registration and login pages ({@code branding.*})
 * @param httpsCertificates certificates for nodes' names and the DNS provider of their challenges
 *                          ({@code https_certificates.*})
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
        ListenerLimits listener,
        Control control,
        Relay relay,
        DerpMaps derpMaps,
        MeshConfig.Oidc oidc,
        MeshConfig.Tls tls,
        DebugAccess debugAccess,
        boolean debugNodeApi,
        boolean funnel,
        boolean recordingFailuresReported,
        Branding branding,
        MeshConfig.HttpsCertificates httpsCertificates) {

    /**
     * Where the DERP map comes from besides the embedded relay: the defaults of the
     * runtime DERP settings ({@code derp.urls}, {@code derp.auto_update_enabled}, {@code derp.update_frequency}),
     * the map files ({@code derp.paths}, file only), the guard on fetching URLs ({@code egress.*}) and how host names
     * are resolved (map URLs, {@code /bootstrap-dns}).
     */
    public record DerpMaps(List<String> urls, List<Path> paths, boolean autoUpdate, Duration updateFrequency,
                           EgressGuard egress, MapUrlFetcher.Resolver resolver) {

        public DerpMaps {
            urls = List.copyOf(urls);
            paths = List.copyOf(paths);
        }

        static DerpMaps from(MeshConfig config, MapUrlFetcher.Resolver resolver) {
            MeshConfig.Derp derp = config.derp();
            return new DerpMaps(derp.urls(), derp.paths(), derp.autoUpdateEnabled(), derp.updateFrequency(),
                    new EgressGuard(config.egress().denyPrivateTargets(), config.egress().allowLoopbackTargets()),
                    resolver);
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
     * @param tlsListener the timeouts and per-address cap of the relay's TLS port, those of the main listener
     */
    public record Relay(boolean enabled, boolean publishRegion, int regionId, String regionCode, String regionName,
                        boolean verifyClients, boolean stunEnabled, String stunListenAddr, Path privateKeyPath,
                        Optional<String> ipv4, Optional<String> ipv6, String tlsListenAddr, Duration stunRetry,
                        ListenerLimits tlsListener) {

        /** The relay's TLS port when {@code derp.server.tls_listen_addr} is not set: 3340 on the main listener's host. */
        public static final int DEFAULT_TLS_PORT = 3340;
        static Relay from(MeshConfig.Derp derp, String listenHost, ListenerLimits tlsListener) {
            MeshConfig.DerpServer s = derp.server();
            String tls = s.tlsListenAddr().orElse(new HostPort(listenHost, DEFAULT_TLS_PORT).toString());
            // Published whenever it runs: the relay may be turned on at runtime although the file has it off.
            return new Relay(s.enabled(), derp.automaticallyAddEmbeddedDerpRegion(), s.regionId(),
                    s.regionCode(), s.regionName(), s.verifyClients(), s.stunEnabled(), s.stunListenAddr(),
                    s.privateKeyPath(), s.ipv4(), s.ipv6(), tls, s.stunRetryInterval(), tlsListener);
        }
    }

    /**
     * What the control protocol serves besides nodes (the map context, with DNS, the dial plan and the extra records,
     * is the network's: {@code Network.mapContext()}).
     *
     * @param keepAlive how often an idle map stream gets a keep-alive (clients give up after 120 s of silence)
     * @param ephemeralInactivityTimeout how long an ephemeral node may stay offline before it is removed
     * @param routes high availability: whether routers fail over, and how they are probed
     * @param clientUpdates the lookup of the latest client release ({@code client_updates.*})
     */
    public record Control(Duration keepAlive, Duration ephemeralInactivityTimeout, MeshConfig.Routes routes,
                          MeshConfig.ClientUpdates clientUpdates) {

        public static final Duration DEFAULT_KEEP_ALIVE = Duration.ofSeconds(50);
    }

    /** The settings {@code config} gives, with the version and the name resolver of {@code launch}. */
    static ServerSettings from(MeshConfig config, Application.Launch launch) {
        HostPort listen = HostPort.parse(config.listenAddr());
        HostPort metrics = config.metricsListenAddr().map(HostPort::parse).orElse(null);
        return new ServerSettings(listen.host(), listen.port(), metrics == null ? null : metrics.host(),
                metrics == null ? 0 : metrics.port(), config.serverUrl(), config.dns().baseDomain(), launch.version(),
                config.cli().localCredentialPath().orElseGet(LocalAccess::defaultLocation), config.noise().privateKeyPath(),
                ListenerLimits.from(config.listener()),
                new Control(Control.DEFAULT_KEEP_ALIVE, config.node().ephemeral().inactivityTimeout(),
                        config.node().routes(), config.clientUpdates()),
                Relay.from(config.derp(), listen.host(), ListenerLimits.from(config.listener())),
                DerpMaps.from(config, launch.resolver()), config.oidc(), config.tls(),
                DebugAccess.fromEnvironment(launch.environment()), config.debug().nodeApiEnabled(),
                config.funnel().enabled(), config.sshRecording().notifyFailures(),
                Branding.of(config.branding().title(), config.branding().logoPath()), config.httpsCertificates());
    }
}
