package io.meshcontrol.server.relay;

import io.meshcontrol.core.MeshException;
import io.meshcontrol.core.config.HostPort;
import io.meshcontrol.core.key.MachinePrivateKey;
import io.meshcontrol.core.key.NodePrivateKey;
import io.meshcontrol.core.key.NodePublicKey;
import io.meshcontrol.core.model.DerpSettings;
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
import java.util.Optional;

/**
 * The relay this server runs itself: DERP on the main listener, STUN on its own UDP socket. Its switches (on or off,
 * client verification, STUN and its address) change at runtime with the DERP settings: a change is first
 * {@linkplain #prepare prepared} (binding a new STUN socket, the step that can fail) and then {@linkplain #apply
 * applied}, so a refused change leaves the relay as it was.
 */
public final class EmbeddedRelay implements AutoCloseable {

    private final ServerSettings.Relay config;
    private final Network network;
    private volatile DerpServer derp;
    private volatile boolean enabled;
    private volatile boolean verifyClients;
    private StunServer stun;
    private String stunAddress;

    public EmbeddedRelay(ServerSettings.Relay config, Network network) {
        this.config = config;
        this.network = network;
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
        boolean wantStun = settings.relayEnabled() && settings.stunEnabled();
        if (settings.relayEnabled()) {
            derpServer();
        }
        if (!wantStun || stun != null && settings.stunListenAddr().equals(stunAddress)) {
            return new Change(settings, null);
        }
        HostPort listen = HostPort.parse(settings.stunListenAddr());
        try {
            return new Change(settings, StunServer.start(new InetSocketAddress(listen.host(), listen.port())));
        } catch (IOException e) {
            throw MeshException.invalid("cannot bind STUN on " + settings.stunListenAddr() + ": " + e.getMessage());
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
            stun = change.newStun();
            stunAddress = settings.stunListenAddr();
        } else if (!(settings.relayEnabled() && settings.stunEnabled())) {
            closeStun();
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
            derp = new DerpServer(loadKey(config), key -> !verifyClients || isKnown(key));
        }
        return derp;
    }

    /** The check reads the current snapshot, so a node registered a moment ago is admitted at once. */
    private boolean isKnown(NodePublicKey key) {
        return network.snapshots().current().nodeByKey(key).isPresent();
    }

    /** The relay key is a node key in Tailscale's terms; its file has the same {@code privkey:} form as the Noise key. */
    private static NodePrivateKey loadKey(ServerSettings.Relay config) {
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
    public void register(Routes routes, BootstrapDnsCache bootstrapDns) {
        new DerpRoutes(this::activeServer, bootstrapDns).register(routes);
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

    /** The region to publish under {@code settings}, once the main listener is bound; empty while the relay is off. */
    public Optional<EmbeddedRegion> region(URI serverUrl, boolean listenerOnPortZero, int boundPort,
            DerpSettings settings) {
        if (!enabled || !config.publishRegion()) {
            return Optional.empty();
        }
        return Optional.of(EmbeddedRegion.of(serverUrl, listenerOnPortZero, boundPort, config.regionId(),
                config.regionCode(), config.regionName(), stunPort(), Optional.ofNullable(blankToNull(settings.ipv4())),
                Optional.ofNullable(blankToNull(settings.ipv6()))));
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
        if (derp != null) {
            derp.close();
        }
        closeStun();
    }
}
