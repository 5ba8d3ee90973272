package io.meshcontrol.server;

import io.meshcontrol.core.config.HostPort;
import io.meshcontrol.core.config.MeshConfig;
import java.nio.file.Path;

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
        Path noiseKeyPath) {

    public static ServerSettings from(MeshConfig config, String version) {
        HostPort listen = HostPort.parse(config.listenAddr());
        HostPort metrics = config.metricsListenAddr().map(HostPort::parse).orElse(null);
        return new ServerSettings(listen.host(), listen.port(), metrics == null ? null : metrics.host(),
                metrics == null ? 0 : metrics.port(), config.serverUrl(), config.dns().baseDomain(), version,
                config.cli().localCredentialPath(), config.noise().privateKeyPath());
    }
}
