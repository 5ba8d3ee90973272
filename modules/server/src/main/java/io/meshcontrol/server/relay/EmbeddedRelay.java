package io.meshcontrol.server.relay;

import io.meshcontrol.core.config.HostPort;
import io.meshcontrol.core.key.MachinePrivateKey;
import io.meshcontrol.core.key.NodePrivateKey;
import io.meshcontrol.core.key.NodePublicKey;
import io.meshcontrol.core.state.Network;
import io.meshcontrol.core.wire.DERPNode;
import io.meshcontrol.relay.derp.DerpServer;
import io.meshcontrol.relay.map.EmbeddedRegion;
import io.meshcontrol.relay.stun.StunServer;
import io.meshcontrol.server.ServerSettings;
import io.meshcontrol.server.http.Routes;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.function.Predicate;

/** The relay this server runs itself: DERP on the main listener, STUN on its own UDP socket. */
public final class EmbeddedRelay implements AutoCloseable {

    private final ServerSettings.Relay settings;
    private final DerpServer derp;
    private final StunServer stun;

    private EmbeddedRelay(ServerSettings.Relay settings, DerpServer derp, StunServer stun) {
        this.settings = settings;
        this.derp = derp;
        this.stun = stun;
    }

    /**
     * Loads (or creates) the relay key and binds STUN. With {@code verify_clients} only node keys of this network may
     * connect; the check reads the current snapshot, so a node registered a moment ago is admitted at once.
     */
    public static EmbeddedRelay start(ServerSettings.Relay settings, Network network) {
        NodePrivateKey key = loadKey(settings);
        Predicate<NodePublicKey> admission = settings.verifyClients()
                ? nodeKey -> network.snapshots().current().nodeByKey(nodeKey).isPresent()
                : nodeKey -> true;
        DerpServer derp = new DerpServer(key, admission);
        StunServer stun = null;
        if (settings.stunEnabled()) {
            HostPort listen = HostPort.parse(settings.stunListenAddr());
            try {
                stun = StunServer.start(new InetSocketAddress(listen.host(), listen.port()));
            } catch (IOException e) {
                derp.close();
                throw new UncheckedIOException("cannot bind STUN on " + settings.stunListenAddr() + ": "
                        + e.getMessage(), e);
            }
        }
        return new EmbeddedRelay(settings, derp, stun);
    }

    /** The relay key is a node key in Tailscale's terms; its file has the same {@code privkey:} form as the Noise key. */
    private static NodePrivateKey loadKey(ServerSettings.Relay settings) {
        try {
            return NodePrivateKey.fromRaw(MachinePrivateKey.loadOrCreate(settings.privateKeyPath()).bytes());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot load or create the relay key " + settings.privateKeyPath() + ": "
                    + e.getMessage(), e);
        }
    }

    public void register(Routes routes) {
        new DerpRoutes(derp).register(routes);
    }

    public DerpServer derp() {
        return derp;
    }

    /** The bound STUN port, or -1 when STUN is off. */
    public int stunPort() {
        return stun == null ? DERPNode.STUN_DISABLED : stun.address().getPort();
    }

    /** The region to publish, once the main listener is bound. */
    public EmbeddedRegion region(URI serverUrl, boolean listenerOnPortZero, int boundPort) {
        return EmbeddedRegion.of(serverUrl, listenerOnPortZero, boundPort, settings.regionId(), settings.regionCode(),
                settings.regionName(), stunPort(), settings.ipv4(), settings.ipv6());
    }

    @Override
    public void close() {
        derp.close();
        if (stun != null) {
            stun.close();
        }
    }
}
