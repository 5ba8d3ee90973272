package io.meshcontrol.server;

import io.meshcontrol.core.config.HostPort;
import io.meshcontrol.core.config.MeshConfig;
import io.meshcontrol.core.wire.DERPMap;
import io.meshcontrol.core.wire.DNSConfig;
import io.meshcontrol.server.control.MapContexts;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

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
        Control control) {

    /**
     * What the control protocol serves besides nodes.
     *
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
                new Control(MapContexts.dns(config.dns()), MapContexts.derpMap(config.derp().paths()),
                        Control.DEFAULT_KEEP_ALIVE, config.node().ephemeral().inactivityTimeout()));
    }
}
