package io.meshcontrol.server;

import io.meshcontrol.core.MeshException;
import io.meshcontrol.core.address.EgressGuard;
import io.meshcontrol.core.config.MeshConfig;
import io.meshcontrol.core.state.Network;
import io.meshcontrol.core.state.NetworkOptions;
import io.meshcontrol.core.state.PolicyFileWatcher;
import io.meshcontrol.notify.Notifications;
import io.meshcontrol.notify.Tailnet;
import io.meshcontrol.relay.map.MapUrlFetcher;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Optional;

/**
 * The whole server, built from its configuration: the database, the network state, policy file mode with its
 * watcher, and {@link MeshServer} (relay, HTTP and metrics listeners). This is the one place the object graph is
 * wired: {@code svc serve}, the server's test fixture and the interop fixture all start it here, so tests run what
 * production runs. Closing it stops all of it.
 */
public final class Application implements AutoCloseable {

    private final Network network;
    private final MeshServer server;
    private final PolicyFileWatcher policyWatcher;
    private final Notifications notifications;

    private Application(Network network, MeshServer server, PolicyFileWatcher policyWatcher,
                        Notifications notifications) {
        this.network = network;
        this.server = server;
        this.policyWatcher = policyWatcher;
        this.notifications = notifications;
    }

    /**
     * What a start takes besides the configuration.
     *
     * @param version  the version the server states (clients compare theirs with it)
     * @param clock    the clock of every state change and timeout
     * @param resolver how host names of DERP map URLs and relays are resolved; tests resolve none
     */
    public record Launch(String version, Clock clock, MapUrlFetcher.Resolver resolver) {

        /** The system clock and the system's resolver: how {@code svc serve} starts. */
        public static Launch of(String version) {
            return new Launch(version, Clock.systemUTC(), MapUrlFetcher.Resolver.system());
        }
    }

    /** The policy file could not be used, so the server did not start; the message names the file and the problem. */
    public static final class PolicyFileRejected extends RuntimeException {
        PolicyFileRejected(MeshException cause) {
            super(cause.getMessage(), cause);
        }
    }

    /**
     * Opens the database and starts everything {@code config} asks for.
     *
     * @throws PolicyFileRejected in policy file mode, when the file is missing or invalid
     */
    public static Application start(MeshConfig config, Launch launch) {
        MeshConfig.Sqlite sqlite = config.database().sqlite();
        Network network = Network.open(sqlite.path(), sqlite.writeAheadLog(), launch.clock(), NetworkOptions.from(config));
        PolicyFileWatcher watcher = null;
        if (config.policy().mode() == MeshConfig.Policy.Mode.FILE) {
            try {
                network.policies().useFile(config.policy().path().orElseThrow());
            } catch (MeshException e) {
                throw new PolicyFileRejected(e);
            }
            watcher = PolicyFileWatcher.start(network.policies());
        }
        Notifications notifications = Notifications.start(network, new Notifications.Settings(
                Tailnet.of(config.dns().baseDomain(), config.serverUrl()),
                new EgressGuard(config.egress().denyPrivateTargets(), config.egress().allowLoopbackTargets()),
                launch.resolver()::resolve, config.notifications().smtp()), launch.clock());
        try {
            MeshServer server = MeshServer.start(ServerSettings.from(config, launch), network, launch.clock());
            return new Application(network, server, watcher, notifications);
        } catch (RuntimeException e) {
            notifications.close();
            if (watcher != null) {
                watcher.close();
            }
            throw e;
        }
    }

    public Network network() {
        return network;
    }

    public MeshServer server() {
        return server;
    }

    /** The policy file in policy file mode. */
    public Optional<Path> policyFile() {
        return Optional.ofNullable(network.policies().file());
    }

    /** Reads the policy file again (what SIGHUP asks for); false when the policy is not read from a file. */
    public boolean reloadPolicy() {
        return network.policies().reload();
    }

    @Override
    public void close() {
        if (policyWatcher != null) {
            policyWatcher.close();
        }
        server.close();
        notifications.close();
    }

    /** Webhook, chat and e-mail delivery. */
    public Notifications notifications() {
        return notifications;
    }
}
