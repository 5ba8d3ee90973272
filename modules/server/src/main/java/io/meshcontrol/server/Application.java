package io.meshcontrol.server;

import io.meshcontrol.core.MeshException;
import io.meshcontrol.core.location.Locations;
import io.meshcontrol.core.address.EgressGuard;
import io.meshcontrol.core.config.MeshConfig;
import io.meshcontrol.core.state.Lease;
import io.meshcontrol.core.state.Network;
import io.meshcontrol.core.state.NetworkOptions;
import io.meshcontrol.core.state.PolicyFileWatcher;
import io.meshcontrol.notify.Notifications;
import io.meshcontrol.notify.Tailnet;
import io.meshcontrol.notify.logstream.LogStreamSender;
import io.meshcontrol.relay.map.MapUrlFetcher;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;
import java.util.Optional;

/**
 * The whole server, built from its configuration: the database, the network state, policy file mode with its
 * watcher, {@link MeshServer} (relay, HTTP and metrics listeners), {@link Notifications} (webhooks, e-mail) and the
 * audit log's {@link LogStreamSender}. This is the one place the object graph is wired: {@code svc serve}, the server's test fixture and the interop fixture all start it here, so tests run what
 * production runs. Closing it stops all of it.
 */
public final class Application implements AutoCloseable {

    /** The name of the lease of the network's singleton work. */
    public static final String SINGLETON_LEASE = "singleton";

    private final Network network;
    private final MeshServer server;
    private final PolicyFileWatcher policyWatcher;
    private final Notifications notifications;
    private final LogStreamSender logStream;
    private final Lease singleton;

    private Application(Network network, MeshServer server, PolicyFileWatcher policyWatcher,
            Notifications notifications, LogStreamSender logStream, Lease singleton) {
        this.singleton = singleton;
        this.network = network;
        this.server = server;
        this.policyWatcher = policyWatcher;
        this.notifications = notifications;
        this.logStream = logStream;
    }

    /**
     * What a start takes besides the configuration.
     *
     * @param version  the version the server states (clients compare theirs with it)
     * @param clock    the clock of every state change and timeout
     * @param resolver how host names of DERP map URLs and relays are resolved; tests resolve none
     * @param environment the process environment, for the variables that are not configuration keys
     *                    ({@code MESH_DEBUG_KEY_PATH}, {@code MESH_ALLOW_DEBUG_IP})
     */
    public record Launch(String version, Clock clock, MapUrlFetcher.Resolver resolver, Map<String, String> environment) {

        public Launch {
            environment = Map.copyOf(environment);
        }

        /** The system clock, the system's resolver and environment: how {@code svc serve} starts. */
        public static Launch of(String version) {
            return new Launch(version, Clock.systemUTC(), MapUrlFetcher.Resolver.system(), System.getenv());
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
        ServerSettings settings = ServerSettings.from(config, launch);
        Network network = Network.open(config.database(), launch.clock(), NetworkOptions.from(config));
        try {
            network.policies().useLocations(Locations.open(config.policy().geoipDatabase()));
        } catch (MeshException e) {
            network.close();
            throw e;
        }
        PolicyFileWatcher watcher = null;
        if (config.policy().mode() == MeshConfig.Policy.Mode.FILE) {
            try {
                network.policies().useFile(config.policy().path().orElseThrow());
            } catch (MeshException e) {
                network.close();
                throw new PolicyFileRejected(e);
            }
            watcher = PolicyFileWatcher.start(network.policies());
        }
        // The network's singleton work (housekeeping, deliveries, log streaming, fetching DERP maps, the client
        // release and the ACME certificate) runs where this lease is held: on SQLite always; on PostgreSQL on one
        // instance at a time (docs/high-availability.md). It names this instance.
        Lease singleton = network.leases().hold(SINGLETON_LEASE, network.instanceId());
        // One egress guard for every outbound request: webhooks, e-mail lookups, log streams, map URLs.
        EgressGuard egress = settings.derpMaps().egress();
        Notifications notifications = Notifications.start(network, new Notifications.Settings(
                Tailnet.of(config.dns().baseDomain(), config.serverUrl()), egress, launch.resolver()::resolve,
                config.notifications().smtp()), launch.clock(), singleton);
        LogStreamSender logStream = null;
        try {
            // PostgreSQL: follow the other instances on the database and beat for them (nothing on SQLite); stopped
            // by network.close(), after the server's streams have ended.
            network.followOtherInstances();
            MeshServer server = MeshServer.start(settings, network, launch.clock(), singleton);
            logStream = new LogStreamSender(network.logStreams(), egress, launch.resolver()::resolve, launch.clock(),
                    singleton);
            logStream.start();
            return new Application(network, server, watcher, notifications, logStream, singleton);
        } catch (RuntimeException e) {
            if (logStream != null) {
                logStream.close();
            }
            notifications.close();
            singleton.close();
            if (watcher != null) {
                watcher.close();
            }
            network.close();
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

    /**
     * What SIGHUP asks for: the policy file (in file mode) and the location database ({@code policy.geoip_database})
     * read again.
     */
    public void reload() {
        reloadPolicy();
        network.policies().reloadLocations();
    }

    /** Whether SIGHUP has anything to reload: a policy file or a location database. */
    public boolean reloadable() {
        return policyFile().isPresent() || network.policies().locations().file().isPresent();
    }

    @Override
    public void close() {
        if (policyWatcher != null) {
            policyWatcher.close();
        }
        logStream.close();
        server.close();
        notifications.close();
        // Given up once none of its work runs any more: another instance takes it over at once.
        singleton.close();
        network.close();
    }

    /** The lease of the network's singleton work, as this instance holds it or waits for it. */
    public Lease singletonLease() {
        return singleton;
    }

    /** Webhook, chat and e-mail delivery. */
    public Notifications notifications() {
        return notifications;
    }
}
