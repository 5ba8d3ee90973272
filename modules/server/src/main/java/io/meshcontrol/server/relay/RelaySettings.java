package io.meshcontrol.server.relay;

import io.meshcontrol.core.config.HostPort;
import io.meshcontrol.core.config.MeshConfig;
import io.meshcontrol.server.listener.ListenerLimits;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

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
 * @param mesh the relays of the other instances, when several serve one network
 */
public record RelaySettings(boolean enabled, boolean publishRegion, int regionId, String regionCode, String regionName,
                    boolean verifyClients, boolean stunEnabled, String stunListenAddr, Path privateKeyPath,
                    Optional<String> ipv4, Optional<String> ipv6, String tlsListenAddr, Duration stunRetry,
                    ListenerLimits tlsListener, Mesh mesh) {

    /**
     * The relay mesh ({@code derp.server.mesh_key_path}, {@code derp.server.mesh_with}).
     *
     * @param relays every instance's relay, this one's too; empty when the relay meshes with none
     * @param retry how long a broken mesh link waits before dialling again
     */
    public record Mesh(Optional<Path> keyPath, List<URI> relays, Duration retry) {

        /** Go's mesh client waits 5 s between attempts. */
        public static final Duration DEFAULT_RETRY = Duration.ofSeconds(5);

        public Mesh {
            relays = List.copyOf(relays);
        }

        public boolean enabled() {
            return keyPath.isPresent() && !relays.isEmpty();
        }

        /** The relays published as the embedded region's nodes: those clients can reach, over https. */
        public List<URI> published() {
            return relays.stream().filter(uri -> "https".equalsIgnoreCase(uri.getScheme())).toList();
        }
    }

    /** The relay's TLS port when {@code derp.server.tls_listen_addr} is not set: 3340 on the main listener's host. */
    public static final int DEFAULT_TLS_PORT = 3340;
    public static RelaySettings from(MeshConfig.Derp derp, String listenHost, ListenerLimits tlsListener) {
        MeshConfig.DerpServer s = derp.server();
        String tls = s.tlsListenAddr().orElse(new HostPort(listenHost, DEFAULT_TLS_PORT).toString());
        // Published whenever it runs: the relay may be turned on at runtime although the file has it off.
        return new RelaySettings(s.enabled(), derp.automaticallyAddEmbeddedDerpRegion(), s.regionId(),
                s.regionCode(), s.regionName(), s.verifyClients(), s.stunEnabled(), s.stunListenAddr(),
                s.privateKeyPath(), s.ipv4(), s.ipv6(), tls, s.stunRetryInterval(), tlsListener,
                new Mesh(s.meshKeyPath(), s.meshWith().stream().map(URI::create).toList(), Mesh.DEFAULT_RETRY));
    }
}
