package io.meshcontrol.server;

import io.meshcontrol.api.LocalAccess;
import io.meshcontrol.core.config.HostPort;
import io.meshcontrol.core.config.MeshConfig;
import io.meshcontrol.server.listener.ListenerLimits;
import io.meshcontrol.server.login.Branding;
import io.meshcontrol.server.metrics.DebugAccess;
import io.meshcontrol.server.relay.DerpMapSettings;
import io.meshcontrol.server.relay.RelayRuntime;
import io.meshcontrol.server.relay.RelaySettings;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

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
        RelaySettings relay,
        DerpMapSettings derpMaps,
        MeshConfig.Oidc oidc,
        MeshConfig.Tls tls,
        DebugAccess debugAccess,
        boolean debugNodeApi,
        boolean funnel,
        boolean recordingFailuresReported,
        Branding branding,
        MeshConfig.HttpsCertificates httpsCertificates) {

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

    /** What the relay runtime takes of these settings. */
    public RelayRuntime.Setup relaySetup() {
        return new RelayRuntime.Setup(relay, derpMaps, serverUrl, listenPort);
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
                RelaySettings.from(config.derp(), listen.host(), ListenerLimits.from(config.listener())),
                DerpMapSettings.from(config, launch.resolver()), config.oidc(), config.tls(),
                DebugAccess.fromEnvironment(launch.environment()), config.debug().nodeApiEnabled(),
                config.funnel().enabled(), config.sshRecording().notifyFailures(),
                Branding.of(config.branding().title(), config.branding().logoPath()), config.httpsCertificates());
    }
}
