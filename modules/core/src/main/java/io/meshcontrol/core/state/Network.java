package io.meshcontrol.core.state;

import io.meshcontrol.core.RandomText;
import io.meshcontrol.core.config.MeshConfig;
import io.meshcontrol.core.event.EventBus;
import io.meshcontrol.core.store.AccessRequestStore;
import io.meshcontrol.core.store.AccessTokenStore;
import io.meshcontrol.core.store.ApiKeyStore;
import io.meshcontrol.core.store.AppStore;
import io.meshcontrol.core.store.BrowserSessionStore;
import io.meshcontrol.core.store.AuditStore;
import io.meshcontrol.core.store.ChangeLog;
import io.meshcontrol.core.store.ChangeNotifications;
import io.meshcontrol.core.store.Database;
import io.meshcontrol.core.store.StatementLogger;
import io.meshcontrol.core.address.AddressPool;
import io.meshcontrol.core.store.DerpSettingsStore;
import io.meshcontrol.core.store.DnsSettingsStore;
import io.meshcontrol.core.store.LogStreamStore;
import io.meshcontrol.core.store.NodeStore;
import io.meshcontrol.core.store.OAuthClientStore;
import io.meshcontrol.core.store.PolicyStore;
import io.meshcontrol.core.store.PostgresSettings;
import io.meshcontrol.core.store.PostureStore;
import io.meshcontrol.core.store.PreAuthKeyStore;
import io.meshcontrol.core.store.SettingsStore;
import io.meshcontrol.core.store.FetchedDocumentStore;
import io.meshcontrol.core.store.TailnetLockStore;
import io.meshcontrol.core.store.TailnetStore;
import io.meshcontrol.core.store.UserStore;
import io.meshcontrol.core.store.VipServiceStore;
import io.meshcontrol.core.store.WebhookStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import org.jdbi.v3.core.Jdbi;

/** The network's state services over one database, wired once; the composition root holds one of these. */
public final class Network {

    private final Database database;
    private final EventBus events;
    private final String tailnetId;
    private final Users users;
    private final ApiKeys apiKeys;
    private final AuditLog auditLog;
    private final PreAuthKeys preAuthKeys;
    private final Nodes nodes;
    private final Settings settings;
    private final Registrations registrations;
    private final PendingLogins pendingLogins;
    private final SshChecks sshChecks;
    private final BrowserSessions browserSessions;
    private final Snapshots snapshots;
    private final Presence presence;
    private final Policies policies;
    private final RouteApprovals routeApprovals;
    private final RouteElection routeElection;
    private final SavedDerpSettings savedDerpSettings;
    private final OAuthClients oauthClients;
    private final Dns dns;
    private final VipServices vipServices;
    private final Posture posture;
    private final AccessRequests accessRequests;
    private final Webhooks webhooks;
    private final Apps apps;
    private final LogStreams logStreams;
    private final MapContextState mapContext;
    private final TailnetLock tailnetLock;
    private final FetchedDocuments fetchedDocuments;
    private final NetworkImport networkImport;
    private final Leases leases;
    /** PostgreSQL: this instance's part in the instances sharing the database; null on SQLite. */
    private final ChangeFollower follower;
    private final InstanceHeartbeat heartbeat;
    private Following following;
    private final String instanceId;

    /**
     * Opens (creating and migrating as needed) the database and the network over it.
     *
     * @param clock read through a millisecond tick: the database keeps milliseconds, so memory does too
     */
    public static Network open(Path databaseFile, boolean writeAheadLog, Clock clock, NetworkOptions options) {
        return open(new MeshConfig.Sqlite(databaseFile, writeAheadLog, Database.DEFAULT_WAL_AUTOCHECKPOINT), clock,
                options, SqlLog.OFF);
    }

    /**
     * What is logged of the SQL run ({@code database.debug}, {@code database.query_log.*}).
     *
     * @param statements every statement at debug level
     * @param parameterized statements with placeholders only, not their bound values
     * @param slowThreshold statements at least this slow are a warning, whatever else is set; zero: none
     * @param notFound lookups that found no row at info level, whatever else is set
     */
    public record SqlLog(boolean statements, boolean parameterized, Duration slowThreshold, boolean notFound) {
        /** No statement logged; none is ever "slow". */
        public static final SqlLog OFF = new SqlLog(false, true, Duration.ZERO, false);
    }

    /** Opens the network on the {@code database.sqlite} settings, logging its SQL as {@code log} says. */
    public static Network open(MeshConfig.Sqlite sqlite, Clock clock, NetworkOptions options, SqlLog log) {
        return new Network(Database.open(sqlite.path(), sqlite.writeAheadLog(), sqlite.walAutocheckpoint(),
                new StatementLogger(log.statements(), log.parameterized(), log.slowThreshold(),
                        log.notFound())), clock, options);
    }

    /** Opens the network on the {@code database.*} settings: SQLite or PostgreSQL, as {@code database.type} says. */
    public static Network open(MeshConfig.Database config, Clock clock, NetworkOptions options) {
        MeshConfig.QueryLog queryLog = config.queryLog();
        SqlLog log = new SqlLog(config.debug(), queryLog.parameterized(), queryLog.slowThreshold(),
                queryLog.logNotFound());
        return switch (config.type()) {
            case SQLITE -> open(config.sqlite(), clock, options, log);
            case POSTGRES -> open(postgresSettings(config.postgres()), clock, options, log);
        };
    }

    /** Opens the network on a PostgreSQL database, logging its SQL as {@code log} says. */
    public static Network open(PostgresSettings postgres, Clock clock, NetworkOptions options, SqlLog log) {
        return new Network(Database.open(postgres, new StatementLogger(log.statements(), log.parameterized(),
                log.slowThreshold(), log.notFound())), clock, options);
    }

    /** The driver's settings for {@code database.postgres.*}, the password read from its file. */
    public static PostgresSettings postgresSettings(MeshConfig.Postgres config) {
        String password = config.passwordFile().map(file -> {
            try {
                return Files.readString(file).strip();
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read database.postgres.password_file " + file + ": "
                        + e.getMessage(), e);
            }
        }).orElse("");
        return new PostgresSettings(config.host(), config.port(), config.name(), config.user(), password,
                PostgresSettings.TlsMode.valueOf(config.tls().name()), config.poolSize());
    }

    Network(Database database, Clock clock) {
        this(database, clock, NetworkOptions.defaults());
    }

    Network(Database database, Clock clock, NetworkOptions options) {
        clock = Clock.tick(clock, Duration.ofMillis(1));
        Jdbi jdbi = database.jdbi();
        this.database = database;
        this.events = new EventBus();
        AuditStore audit = new AuditStore();
        this.auditLog = new AuditLog(jdbi, audit);
        UserStore userStore = new UserStore();
        NodeStore nodeStore = new NodeStore();
        SettingsStore settingsStore = new SettingsStore();
        this.tailnetId = new TailnetStore(jdbi).ensureTailnetId(clock.instant());
        this.leases = new Leases(jdbi, database.dialect());
        // PostgreSQL: one of possibly several instances. Where it starts following the others' changes is read
        // before any state is, so no change falls between what it read and what it follows.
        this.instanceId = RandomText.alphanumeric(16);
        ChangeLog changeLog = ChangeLog.of(database.dialect(), instanceId);
        long followFrom = changeLog.on() ? jdbi.withHandle(changeLog::lastSeq) : 0;
        // The change feed: every change reaches the snapshot, then the feed's listeners, then the event bus.
        WebhookStore webhookStore = new WebhookStore(database.dialect());
        WebhookOutbox outbox = new WebhookOutbox(jdbi, webhookStore, clock);
        this.snapshots = new Snapshots(jdbi, nodeStore, userStore, events, outbox, changeLog);
        Writer writer = new Writer(jdbi, database.dialect(), audit, snapshots, clock);
        this.presence = new Presence(jdbi, nodeStore, snapshots, clock);
        this.policies = new Policies(jdbi, writer, new PolicyStore(), snapshots, clock,
                () -> PolicyInventories.of(snapshots.current(), policies().locations().current()));
        // The feed's first listener: the route table is elected before map streams hear of a change.
        this.routeElection = new RouteElection(jdbi, snapshots, options.routesHighAvailability(), clock);
        AppStore appStore = new AppStore();
        this.apps = new Apps(jdbi, writer, appStore, audit, snapshots);
        this.routeApprovals = new RouteApprovals(jdbi, writer, snapshots, nodeStore, userStore, policies, apps, appStore,
                clock);
        policies.approveRoutesWith(routeApprovals);
        apps.approveRoutesWith(routeApprovals);
        this.users = new Users(jdbi, writer, userStore, nodeStore, settingsStore, snapshots, clock);
        this.apiKeys = new ApiKeys(jdbi, writer, new ApiKeyStore(), userStore, audit, options.maxKeyLifetimes(), clock);
        this.preAuthKeys = new PreAuthKeys(jdbi, writer, new PreAuthKeyStore(), userStore, policies, options.maxKeyLifetimes(),
                clock);
        this.networkImport = new NetworkImport(jdbi, writer, userStore, nodeStore, new PreAuthKeyStore(), policies);
        // One pool: nodes and services share the IPv4 prefix, and sequential allocation resumes where it left off.
        AddressPool addresses = new AddressPool(options.prefixV4(), options.prefixV6(), options.allocation());
        this.nodes = new Nodes(jdbi, writer, nodeStore, snapshots, policies, routeApprovals, settingsStore,
                options, addresses, clock);
        this.settings = new Settings(jdbi, writer, settingsStore);
        this.registrations = new Registrations(jdbi, writer, nodeStore, userStore, settingsStore, preAuthKeys, policies,
                routeApprovals, options, addresses, snapshots, clock);
        this.pendingLogins = new PendingLogins(registrations, users, policies, writer, audit, clock);
        this.sshChecks = new SshChecks(writer, audit, snapshots, clock);
        this.browserSessions = new BrowserSessions(jdbi, new BrowserSessionStore(), userStore, clock);
        this.savedDerpSettings = new SavedDerpSettings(jdbi, writer, new DerpSettingsStore(), audit);
        this.oauthClients = new OAuthClients(jdbi, writer, new OAuthClientStore(), new AccessTokenStore(), audit, policies,
                tailnetId, clock);
        this.dns = new Dns(jdbi, writer, new DnsSettingsStore(), audit, options.dns());
        this.vipServices = new VipServices(jdbi, writer, new VipServiceStore(), addresses);
        this.posture = new Posture(jdbi, writer, new PostureStore(), nodeStore, clock);
        this.accessRequests = new AccessRequests(jdbi, writer, new AccessRequestStore(), userStore, audit, policies, snapshots,
                clock);
        this.webhooks = new Webhooks(jdbi, writer, webhookStore, outbox, audit, snapshots, clock);
        this.logStreams = new LogStreams(jdbi, writer, new LogStreamStore(), audit, clock);
        // What every map carries besides nodes: follows DNS, services and apps as their changes commit.
        this.mapContext = new MapContextState(tailnetId, options.map(), dns.current(), vipServices.current(),
                apps.current(), snapshots);
        dns.onChange(mapContext::dns);
        vipServices.onChange(mapContext::services);
        apps.onChange(mapContext::apps);
        this.tailnetLock = new TailnetLock(jdbi, writer, new TailnetLockStore(), nodeStore, audit, snapshots);
        this.fetchedDocuments = new FetchedDocuments(jdbi, new FetchedDocumentStore(), snapshots, clock);
        mapContext.tailnetLock(tailnetLock.mapInfo());
        tailnetLock.onChange(mapContext::tailnetLock);
        if (changeLog.on()) {
            this.heartbeat = new InstanceHeartbeat(jdbi, changeLog, presence);
            heartbeat.register(); // before this instance's first stream is written
            this.follower = new ChangeFollower(jdbi, changeLog, followFrom, new ChangeFollower.Targets(snapshots,
                    nodeStore, userStore, audit, policies, accessRequests, dns, vipServices, apps, savedDerpSettings,
                    presence, routeElection, tailnetLock, fetchedDocuments), InstanceHeartbeat.STALE);
        } else {
            this.heartbeat = null;
            this.follower = null;
        }
    }

    /**
     * Starts following the other instances sharing the database (PostgreSQL; nothing on SQLite): their changes reach
     * this instance's feed, and its heartbeat tells them it is alive. Stopped by {@link Following#close()} or
     * {@link #close()}.
     */
    public synchronized Following followOtherInstances() {
        return followOtherInstances(true);
    }

    /** @param listen false: poll the change log only, as if every notification were lost (tests) */
    synchronized Following followOtherInstances(boolean listen) {
        if (follower == null) {
            return Following.NONE;
        }
        if (following == null) {
            following = new Following(this, listen ? database.changeNotifications() : null);
        }
        return following;
    }

    /** The follower of the other instances' changes (PostgreSQL), for core's own tests; null on SQLite. */
    ChangeFollower follower() {
        return follower;
    }

    /**
     * Names this run of the server: its row in {@code instances} and its rows of the change log (PostgreSQL), the
     * holder of its leases, and {@code Svc-Instance} on {@code /version}. New at every start.
     */
    public String instanceId() {
        return instanceId;
    }

    /** The threads that keep an instance in step with the others: the change follower and the heartbeat. */
    public static final class Following implements AutoCloseable {

        static final Following NONE = new Following();

        private final Network network;
        private final ChangeNotifications notifications;
        private final Thread follow;
        private final Thread beat;

        private Following() {
            this.network = null;
            this.notifications = null;
            this.follow = null;
            this.beat = null;
        }

        private Following(Network network, ChangeNotifications notifications) {
            this.network = network;
            this.notifications = notifications;
            // Platform threads: the driver blocks in socket reads while listening.
            this.follow = Thread.ofPlatform().daemon().name("change-follower")
                    .start(() -> network.follower.run(notifications));
            this.beat = Thread.ofPlatform().daemon().name("instance-heartbeat").start(network.heartbeat::run);
        }

        /** Stops following and beating, leaving this instance's row as it is: as a killed process would (tests). */
        void halt() {
            follow.interrupt();
            beat.interrupt();
            if (notifications != null) {
                notifications.close();
            }
            try {
                follow.join(Duration.ofSeconds(5));
                beat.join(Duration.ofSeconds(5));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        /** Stops following and beating, and removes this instance's row: the others count its streams no more. */
        @Override
        public void close() {
            if (network == null) {
                return;
            }
            synchronized (network) {
                if (network.following != this) {
                    return;
                }
                network.following = null;
            }
            halt();
            try {
                network.heartbeat.remove();
            } catch (RuntimeException e) {
                // The others treat it as gone once its heartbeat is stale.
            }
        }
    }

    /** The database, for core's own tests. */
    Database database() {
        return database;
    }

    /** Stops following other instances, then closes the database's kept connections: the last thing a server does. */
    public void close() {
        Following running;
        synchronized (this) {
            running = following;
        }
        if (running != null) {
            running.close();
        } else if (heartbeat != null) {
            try {
                heartbeat.remove();
            } catch (RuntimeException e) {
                // The others treat it as gone once its heartbeat is stale.
            }
        }
        database.close();
    }

    /** True when the server checkpoints the database's write-ahead log itself ({@code wal_autocheckpoint: 0}). */
    public boolean checkpointsOnSchedule() {
        return database.checkpointsOnSchedule();
    }

    /** Checkpoints the write-ahead log; true when it is now empty. See {@link Database#checkpoint()}. */
    public boolean checkpointDatabase() {
        return database.checkpoint();
    }

    /** True when the database answers a trivial query: used by {@code /health}. */
    public boolean databaseReachable() {
        return database.isReachable();
    }

    /** Events as changes commit, for in-process observers; map streaming follows {@link #snapshots()}. */
    public EventBus events() {
        return events;
    }

    public String tailnetId() {
        return tailnetId;
    }

    public Users users() {
        return users;
    }

    public ApiKeys apiKeys() {
        return apiKeys;
    }

    public AuditLog auditLog() {
        return auditLog;
    }

    public PreAuthKeys preAuthKeys() {
        return preAuthKeys;
    }

    public Nodes nodes() {
        return nodes;
    }

    public Settings settings() {
        return settings;
    }

    public Registrations registrations() {
        return registrations;
    }

    public PendingLogins pendingLogins() {
        return pendingLogins;
    }

    /** SSH sessions held by a {@code check} rule until the person logs in again or an administrator decides. */
    public SshChecks sshChecks() {
        return sshChecks;
    }

    /** Browser sessions of people who logged in (the console). */
    public BrowserSessions browserSessions() {
        return browserSessions;
    }

    /** The change feed and the snapshot it keeps. */
    public Snapshots snapshots() {
        return snapshots;
    }

    public Presence presence() {
        return presence;
    }

    public Policies policies() {
        return policies;
    }

    public RouteApprovals routeApprovals() {
        return routeApprovals;
    }

    public RouteElection routeElection() {
        return routeElection;
    }

    public SavedDerpSettings savedDerpSettings() {
        return savedDerpSettings;
    }

    /** OAuth clients, federated identities and the access tokens they are exchanged for. */
    public OAuthClients oauthClients() {
        return oauthClients;
    }

    public Dns dns() {
        return dns;
    }

    public VipServices vipServices() {
        return vipServices;
    }

    public Posture posture() {
        return posture;
    }

    /** Just-in-time group memberships; {@link AccessRequests#approvers()} are the people who decide them. */
    public AccessRequests accessRequests() {
        return accessRequests;
    }

    /** Webhook endpoints and their deliveries (the outbox and the history). */
    public Webhooks webhooks() {
        return webhooks;
    }

    /** Apps and their connectors. */
    public Apps apps() {
        return apps;
    }

    /** Log streaming of the audit log. */
    public LogStreams logStreams() {
        return logStreams;
    }

    /** The map context in force (DNS, services, apps, the DERP map, the latest client release). */
    /** Fills an empty network from another control server ({@code svc import headscale}). */
    public NetworkImport networkImport() {
        return networkImport;
    }

    public TailnetLock tailnetLock() {
        return tailnetLock;
    }

    /** What the server fetched from outside for the whole network (DERP maps, client release, ACME certificate). */
    public FetchedDocuments fetchedDocuments() {
        return fetchedDocuments;
    }

    public MapContextState mapContext() {
        return mapContext;
    }

    /** The leases of singleton work: which instance reaps, announces expiries, delivers and streams logs. */
    public Leases leases() {
        return leases;
    }
}
