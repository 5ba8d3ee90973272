package io.meshcontrol.server;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.core.auth.Caller;
import io.meshcontrol.core.config.MeshConfig;
import io.meshcontrol.core.model.Node;
import io.meshcontrol.core.model.Role;
import io.meshcontrol.core.state.Lease;
import io.meshcontrol.core.state.Network;
import io.meshcontrol.core.state.NetworkOptions;
import io.meshcontrol.core.state.PreAuthKeys;
import io.meshcontrol.core.state.Users;
import io.meshcontrol.core.testing.Await;
import io.meshcontrol.core.testing.Machine;
import io.meshcontrol.core.testing.MovableClock;
import io.meshcontrol.core.testing.PostgresCluster;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ScheduledExecutorService;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Housekeeping is the network's work, done by the holder of the singleton lease alone: an instance that does not hold
 * it leaves an ephemeral node past its time alone, and reaps it once the lease has come to it.
 */
class HousekeepingLeaseTest {

    static final Duration INACTIVITY = Duration.ofSeconds(2); // the reaper looks every 500 ms

    @TempDir
    Path folder;
    final List<AutoCloseable> running = new ArrayList<>();

    @AfterEach
    void stop() throws Exception {
        for (AutoCloseable closeable : running.reversed()) {
            closeable.close();
        }
    }

    Network instance(MeshConfig.Database database, MovableClock clock) {
        Network network = Network.open(database, clock, NetworkOptions.defaults());
        running.add(network::close);
        return network;
    }

    @Test
    void onlyTheHolderOfTheLeaseReapsEphemeralNodes() throws InterruptedException {
        Assumptions.assumeTrue(PostgresCluster.installed(), "PostgreSQL is not installed (run-tests installs it)");
        Map<String, String> keys = PostgresCluster.shared().newEmptyDatabaseConfig();
        MeshConfig.Database database = new MeshConfig.Database(MeshConfig.Database.Type.POSTGRES, false,
                new MeshConfig.QueryLog(true, false, Duration.ZERO), new MeshConfig.Sqlite(folder.resolve("unused"),
                true, 1000), new MeshConfig.Postgres(keys.get("database.postgres.host"),
                Integer.parseInt(keys.get("database.postgres.port")), keys.get("database.postgres.name"),
                keys.get("database.postgres.user"), Optional.empty(), MeshConfig.Postgres.Tls.DISABLE, 4));
        MovableClock clock = MovableClock.startingAt2026();
        Network holder = instance(database, clock);
        Lease held = holder.leases().hold(Application.SINGLETON_LEASE, "holder");
        running.add(held);
        Await.until("the first instance holds the lease", held::held);

        Network other = instance(database, clock);
        Lease waiting = other.leases().hold(Application.SINGLETON_LEASE, "other");
        running.add(waiting);
        ScheduledExecutorService housekeeping = Housekeeping.start(other, INACTIVITY, waiting);
        running.add(housekeeping::shutdownNow);
        other.users().create(Caller.localAdmin(), new Users.NewUser("odin", null, null, Role.MEMBER));
        String key = other.preAuthKeys().create(Caller.localAdmin(), new PreAuthKeys.NewKey("odin", List.of(), false,
                true, false, "", null)).secret();
        Node ephemeral = Machine.named("builder").join(other, key);
        clock.advance(Duration.ofHours(1)); // long past its inactivity timeout, never online

        // Several of its reaper's rounds pass while the lease is elsewhere: the node stays.
        long until = System.nanoTime() + INACTIVITY.toNanos();
        while (System.nanoTime() - until < 0) {
            assertTrue(other.snapshots().current().node(ephemeral.id()).isPresent(), "not reaped by a non-holder");
            Thread.sleep(50);
        }
        held.close();
        Await.until("the lease came to the other instance", waiting::held);
        Await.until("the other instance reaped the node",
                () -> other.snapshots().current().node(ephemeral.id()).isEmpty());
    }
}
