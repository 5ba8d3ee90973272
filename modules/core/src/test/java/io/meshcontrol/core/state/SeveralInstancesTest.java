package io.meshcontrol.core.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.core.auth.Caller;
import io.meshcontrol.core.model.DnsSettings;
import io.meshcontrol.core.model.Node;
import io.meshcontrol.core.model.Role;
import io.meshcontrol.core.store.PostgresSettings;
import io.meshcontrol.core.testing.Await;
import io.meshcontrol.core.testing.AuthKey;
import io.meshcontrol.core.testing.Machine;
import io.meshcontrol.core.testing.MovableClock;
import io.meshcontrol.core.testing.PostgresCluster;
import io.meshcontrol.core.testing.TestNetwork;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two instances (two {@link Network}s, as two servers would open them) on one PostgreSQL database: a change made
 * through one reaches the other's snapshot and feed through the change log, parallel read-modify-writes on both lose
 * nothing, and a node streaming from an instance that stopped beating counts as offline on the other.
 */
class SeveralInstancesTest {

    private final Caller admin = Caller.localAdmin();
    private final MovableClock clock = MovableClock.startingAt2026();
    private PostgresSettings database;
    private Network a;
    private Network b;
    private final List<StateChange> seenByB = new CopyOnWriteArrayList<>();

    @BeforeEach
    void open() {
        Assumptions.assumeTrue(PostgresCluster.installed(), "PostgreSQL is not installed (run-tests installs it)");
        database = PostgresCluster.shared().newDatabase();
        a = Network.open(database, clock, NetworkOptions.defaults(), Network.SqlLog.OFF);
        b = Network.open(database, clock, NetworkOptions.defaults(), Network.SqlLog.OFF);
        b.snapshots().subscribe(seenByB::add);
    }

    @AfterEach
    void close() {
        if (a != null) {
            a.close();
            b.close();
        }
    }

    @Test
    void nodeUserPolicyAndDnsChangedOnOneInstanceReachTheOthersSnapshotAndFeed() throws Exception {
        b.followOtherInstances();
        a.users().create(admin, new Users.NewUser("odin", "Odin", "odin@example.com", Role.MEMBER));
        Node node = Machine.named("laptop").join(a, AuthKey.forUser("odin").reusable().create(a));
        Await.until("the node on B", () -> b.snapshots().current().node(node.id()).isPresent());
        assertTrue(b.snapshots().current().users().values().stream().anyMatch(u -> u.name().equals("odin")));

        a.policies().set(admin, "{\"tagOwners\": {\"tag:web\": [\"autogroup:admin\"]}, \"acls\": []}", null);
        Await.until("the policy on B", () -> b.policies().etag().equals(a.policies().etag()));
        assertTrue(seenByB.stream().anyMatch(StateChange.PolicyChanged.class::isInstance));

        a.nodes().setTags(admin, node.id(), List.of("tag:web"));
        Await.until("the tag on B", () -> b.snapshots().current().node(node.id()).orElseThrow().tags()
                .equals(List.of("tag:web")));
        assertTrue(seenByB.stream().anyMatch(c -> c instanceof StateChange.NodeChanged n && n.nodeId() == node.id()));

        a.dns().update(admin, dns -> withNameserver(dns, "9.9.9.9"));
        Await.until("the nameserver in B's map context", () -> b.mapContext().current().dnsConfig().toString()
                .contains("9.9.9.9"));
        assertTrue(seenByB.stream().anyMatch(StateChange.MapContextChanged.class::isInstance));
        Await.until("A's audit entries on B's feed", () -> seenByB.stream()
                .anyMatch(c -> c instanceof StateChange.Recorded r && r.entry().action().equals("dns.update")));

        a.nodes().delete(admin, node.id());
        Await.until("the node gone on B", () -> b.snapshots().current().node(node.id()).isEmpty());
    }

    @Test
    void parallelReadModifyWritesOnBothInstancesAllStay() throws Exception {
        int each = 12;
        CountDownLatch start = new CountDownLatch(1);
        List<Future<?>> done = new ArrayList<>();
        try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int i = 0; i < each * 2; i++) {
                Network via = i % 2 == 0 ? a : b;
                String address = "10.0.0." + (i + 1);
                done.add(threads.submit(() -> {
                    start.await();
                    via.dns().update(admin, dns -> withNameserver(dns, address));
                    return null;
                }));
            }
            start.countDown();
            for (Future<?> change : done) {
                change.get();
            }
        }
        Network third = Network.open(database, clock, NetworkOptions.defaults(), Network.SqlLog.OFF);
        DnsSettings saved = third.dns().current();
        third.close();
        assertEquals(each * 2, saved.nameservers().size(), "every nameserver added on either instance stays: "
                + saved.nameservers());
    }

    @Test
    void aLostNotificationIsCaughtByThePoll() throws Exception {
        b.followOtherInstances(false); // polls only: as if every notification were lost
        a.dns().update(admin, dns -> withNameserver(dns, "1.1.1.1"));
        Await.until("the nameserver on B", () -> b.dns().current().nameservers().stream()
                .anyMatch(r -> r.address().equals("1.1.1.1")));
    }

    @Test
    void aNodeStreamingFromAnInstanceWhoseHeartbeatStoppedIsOfflineOnTheOther() throws Exception {
        a.users().create(admin, new Users.NewUser("odin", "Odin", "odin@example.com", Role.MEMBER));
        Node node = Machine.named("laptop").join(a, AuthKey.forUser("odin").create(a));
        Network.Following aBeats = a.followOtherInstances();
        b.followOtherInstances();
        a.presence().connected(node);
        Await.until("online on B", () -> b.snapshots().current().isOnline(node.id()));

        b.presence().connected(node);
        b.presence().disconnected(node);
        assertTrue(b.snapshots().current().isOnline(node.id()), "still streaming on A");

        aBeats.halt(); // as if A were killed: its row stays, and grows old (made old here rather than waited for)
        try (Connection sql = PostgresCluster.shared().connect(database.name());
                Statement statement = sql.createStatement()) {
            statement.executeUpdate("UPDATE instances SET heartbeat_at = now() - interval '1 minute' WHERE id = '"
                    + a.instanceId() + "'");
        }
        Await.until("offline on B once A's heartbeat is stale", () -> !b.snapshots().current().isOnline(node.id()));
        assertTrue(a.snapshots().current().isOnline(node.id()), "A itself still holds the stream");
    }

    @Test
    void anInstanceTakenForGoneAnnouncesItselfAndItsStreamsAgain() throws Exception {
        a.users().create(admin, new Users.NewUser("odin", "Odin", "odin@example.com", Role.MEMBER));
        Node node = Machine.named("laptop").join(a, AuthKey.forUser("odin").create(a));
        a.followOtherInstances();
        b.followOtherInstances();
        a.presence().connected(node);
        Await.until("online on B", () -> b.snapshots().current().isOnline(node.id()));

        // What another instance does to one silent for a minute (a long pause of A's process): its row goes, and
        // its streams with it.
        try (Connection sql = PostgresCluster.shared().connect(database.name());
                Statement statement = sql.createStatement()) {
            statement.executeUpdate("DELETE FROM instances WHERE id = '" + a.instanceId() + "'");
        }
        Await.until("A and its stream written again at its next heartbeat", () -> rows(
                "SELECT count(*) FROM node_streams s JOIN instances i ON i.id = s.instance_id WHERE i.id = '"
                        + a.instanceId() + "'") == 1);
        Await.until("online on B", () -> b.snapshots().current().isOnline(node.id()));
    }

    @Test
    void bothInstancesElectTheSamePrimaryRouterAndFailOverTogether() throws Exception {
        a.users().create(admin, new Users.NewUser("odin", "Odin", "odin@example.com", Role.MEMBER));
        Node r1 = router(a, "r1");
        Node r2 = router(a, "r2");
        Network.Following aBeats = a.followOtherInstances();
        b.followOtherInstances();
        a.presence().connected(r1);
        // One router change at a time, as routers come and go: the elections are sticky, so instances that saw two
        // routers come online in opposite orders (within the propagation time) could each keep a different one.
        Await.until("r1 online on B", () -> b.snapshots().current().isOnline(r1.id()));
        b.presence().connected(r2);
        Await.until("r1 serves the prefix on both", () -> serves(a, r1) && serves(b, r1)
                && a.snapshots().current().isOnline(r2.id()));

        a.routeElection().probed(r1.id(), false); // r1 holds its stream on A but stopped answering
        Await.until("r2 serves it on both", java.time.Duration.ofSeconds(10), () -> serves(a, r2) && serves(b, r2),
                () -> "A: " + a.routeElection().current().primaries() + " r2 online " + a.snapshots().current()
                        .isOnline(r2.id()) + "; B: " + b.routeElection().current().primaries() + " r1 online "
                        + b.snapshots().current().isOnline(r1.id()));
        a.routeElection().probed(r1.id(), true);

        b.presence().disconnected(r2);
        Await.until("back to r1 on both", () -> serves(a, r1) && serves(b, r1));
        b.presence().connected(r2);
        Await.until("r2 online on A", () -> a.snapshots().current().isOnline(r2.id()));
        aBeats.halt();
        try (Connection sql = PostgresCluster.shared().connect(database.name());
                Statement statement = sql.createStatement()) {
            statement.executeUpdate("UPDATE instances SET heartbeat_at = now() - interval '1 minute' WHERE id = '"
                    + a.instanceId() + "'");
        }
        Await.until("B fails over to r2 once A is gone", () -> serves(b, r2));
    }

    private static Node router(Network network, String name) {
        Node node = Machine.named(name).advertising("10.1.0.0/16").join(network,
                AuthKey.forUser("odin").create(network));
        return network.routeApprovals().setApproved(Caller.localAdmin(), node.id(), List.of("10.1.0.0/16"));
    }

    private static boolean serves(Network network, Node router) {
        return !network.routeElection().current().primaryRoutes(router.id()).isEmpty();
    }

    @Test
    void theChangeLogIsReadFromWhereTheInstanceStartedAndIsPruned() throws Exception {
        a.users().create(admin, new Users.NewUser("odin", "Odin", "odin@example.com", Role.MEMBER));
        Network late = Network.open(database, clock, NetworkOptions.defaults(), Network.SqlLog.OFF);
        try {
            long start = late.follower().applied();
            assertTrue(start > 0, "starts after the rows written before it read its state");
            late.follower().catchUp();
            assertEquals(start, late.follower().applied(), "nothing new");
            assertTrue(rows("SELECT count(*) FROM change_log") > 0);
            try (Connection sql = PostgresCluster.shared().connect(database.name());
                    Statement statement = sql.createStatement()) {
                statement.executeUpdate("UPDATE change_log SET written_at = now() - interval '2 hours'");
            }
            a.database().jdbi().useTransaction(h -> a.snapshots().changeLog().prune(h, InstanceHeartbeat.KEEP_LOG));
            assertEquals(0, rows("SELECT count(*) FROM change_log"));
        } finally {
            late.close();
        }
    }

    @Test
    void onSqliteNoChangeIsLogged(@TempDir Path folder) {
        Assumptions.assumeFalse(PostgresCluster.wanted());
        TestNetwork sqlite = new TestNetwork(folder);
        assertFalse(sqlite.network.snapshots().changeLog().on());
        sqlite.user("odin", Role.MEMBER);
        List<String> tables = sqlite.network.database().jdbi().withHandle(h -> h.createQuery(
                "SELECT name FROM sqlite_master WHERE type = 'table'").mapTo(String.class).list());
        assertFalse(tables.contains("change_log"), "the table is PostgreSQL's only: " + tables);
        assertEquals(Network.Following.class, sqlite.network.followOtherInstances().getClass());
        assertTrue(sqlite.network.follower() == null, "no follower on SQLite");
    }

    private long rows(String query) {
        try (Connection sql = PostgresCluster.shared().connect(database.name());
                Statement statement = sql.createStatement(); ResultSet result = statement.executeQuery(query)) {
            result.next();
            return result.getLong(1);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private static DnsSettings withNameserver(DnsSettings dns, String address) {
        List<DnsSettings.Resolver> nameservers = new ArrayList<>(dns.nameservers());
        nameservers.add(new DnsSettings.Resolver(address, false));
        return new DnsSettings(dns.magicDns(), dns.overrideLocalDns(), nameservers, dns.splitDns(), dns.searchPaths());
    }
}
