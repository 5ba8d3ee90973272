package io.meshcontrol.core.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.core.model.LeaseHolding;
import io.meshcontrol.core.store.PostgresSettings;
import io.meshcontrol.core.testing.Await;
import io.meshcontrol.core.testing.MovableClock;
import io.meshcontrol.core.testing.PostgresCluster;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Leases of singleton work among instances on one PostgreSQL database (each instance its own {@link Network}, with
 * its own connections and a clock of its own), and on SQLite, where the one process always holds them.
 */
class LeaseTest {

    @TempDir
    Path folder;
    final List<Lease> leases = new ArrayList<>();
    final List<Network> networks = new ArrayList<>();

    @AfterEach
    void stop() {
        leases.forEach(Lease::close);
        networks.forEach(Network::close);
    }

    /** {@code count} instances on one new PostgreSQL database, their wall clocks an hour apart from each other. */
    List<Network> instances(int count) {
        Assumptions.assumeTrue(PostgresCluster.installed(), "PostgreSQL is not installed (run-tests installs it)");
        PostgresSettings database = PostgresCluster.shared().newDatabase();
        for (int i = 0; i < count; i++) {
            MovableClock clock = MovableClock.startingAt2026();
            clock.advance(Duration.ofHours(i)); // leases go by the database's clock: skew changes nothing
            networks.add(Network.open(database, clock, NetworkOptions.defaults(), Network.SqlLog.OFF));
        }
        return networks;
    }

    Lease hold(Network network, String holder, Duration ttl) {
        Lease lease = network.leases().hold("singleton", holder, ttl);
        leases.add(lease);
        return lease;
    }

    static long holding(List<Lease> contenders) {
        return contenders.stream().filter(Lease::held).count();
    }

    @Test
    void oneOfThreeContendersHoldsTheLeaseAndTheDatabaseNamesIt() throws InterruptedException {
        List<Network> instances = instances(3);
        List<Lease> contenders = List.of(hold(instances.get(0), "a", Duration.ofSeconds(2)),
                hold(instances.get(1), "b", Duration.ofSeconds(2)), hold(instances.get(2), "c", Duration.ofSeconds(2)));
        Await.until("one contender holds the lease", () -> {
            assertTrue(holding(contenders) <= 1, "never two holders");
            return holding(contenders) == 1;
        });
        Lease holder = contenders.stream().filter(Lease::held).findFirst().orElseThrow();
        // Through several renewals (a third of the time to live each) the holder keeps it, alone.
        long until = System.nanoTime() + Duration.ofSeconds(3).toNanos();
        while (System.nanoTime() - until < 0) {
            assertTrue(holding(contenders) <= 1, "never two holders");
            Thread.sleep(10);
        }
        assertTrue(holder.held(), "a holder that renews keeps the lease");
        List<LeaseHolding> held = instances.get(1).leases().holdings();
        assertEquals(1, held.size());
        assertEquals("singleton", held.getFirst().name());
        assertEquals(holder.holder(), held.getFirst().holder());
        assertEquals(holder.epoch(), held.getFirst().epoch());
        assertTrue(instances.get(0).leases().shared());
    }

    @Test
    void aHolderThatStopsHandsTheLeaseOverAtOnce() throws InterruptedException {
        List<Network> instances = instances(2);
        // A minute to live: only the holder's giving up, not its expiry, can hand it over within the wait.
        Lease first = hold(instances.get(0), "first", Duration.ofMinutes(1));
        Await.until("the first instance holds the lease", first::held);
        Lease second = hold(instances.get(1), "second", Duration.ofMinutes(1));
        long epoch = first.epoch();
        first.close();
        assertFalse(first.held());
        Await.until("the second instance took the lease", second::held);
        assertEquals(epoch + 1, second.epoch(), "the epoch grows as the lease changes hands");
        assertEquals("second", instances.get(0).leases().holdings().getFirst().holder());
    }

    @Test
    void workHandedOverWhenTakenRunsAtOnceWhereTheLeaseIsHeldAlreadyAndWhereItIsTakenLater()
            throws InterruptedException {
        List<Network> instances = instances(2);
        Lease first = hold(instances.get(0), "first", Duration.ofMinutes(1));
        Await.until("the first instance holds the lease", first::held);
        java.util.concurrent.atomic.AtomicInteger firstRuns = new java.util.concurrent.atomic.AtomicInteger();
        first.whenTaken(Runnable::run, firstRuns::incrementAndGet);
        assertEquals(1, firstRuns.get(), "taken before the work was handed over: it runs at once");

        Lease second = hold(instances.get(1), "second", Duration.ofMinutes(1));
        java.util.concurrent.atomic.AtomicInteger secondRuns = new java.util.concurrent.atomic.AtomicInteger();
        second.whenTaken(Runnable::run, secondRuns::incrementAndGet);
        assertEquals(0, secondRuns.get(), "not held: nothing runs");
        first.close();
        Await.until("the second instance ran the work when it took the lease", () -> secondRuns.get() >= 1);
    }

    @Test
    void aHolderThatDiesLosesTheLeaseAndAnotherTakesItOver() throws InterruptedException {
        List<Network> instances = instances(2);
        Lease dying = hold(instances.get(0), "dying", Duration.ofSeconds(2));
        Await.until("the first instance holds the lease", dying::held);
        Lease survivor = hold(instances.get(1), "survivor", Duration.ofSeconds(2));
        List<Boolean> told = new java.util.concurrent.CopyOnWriteArrayList<>();
        dying.onChange(() -> told.add(dying.held()));
        long epoch = dying.epoch();
        dying.stopRenewing(); // as if its process died: no renewal, nothing given up
        Await.until("the survivor took the lease over", () -> {
            assertFalse(dying.held() && survivor.held(), "never two holders");
            return survivor.held();
        });
        assertFalse(dying.held(), "the dead holder's own deadline passed before the lease could move");
        assertTrue(survivor.epoch() > epoch);
        Await.until("the dying instance's work was told it lost the lease", () -> told.contains(false));
    }

    @Test
    void onSqliteTheOneProcessHoldsEveryLeaseAndWritesNothingForIt() {
        Network network = Network.open(folder.resolve("db.sqlite"), true, MovableClock.startingAt2026(),
                NetworkOptions.defaults());
        networks.add(network);
        Lease lease = hold(network, "alone", Leases.TTL);
        assertTrue(lease.held());
        assertFalse(network.leases().shared());
        assertEquals(List.of(new LeaseHolding("singleton", "alone", 1, Duration.ZERO)), network.leases().holdings());
        assertEquals(0, (int) network.database().jdbi().withHandle(h -> h.createQuery("SELECT COUNT(*) FROM leases")
                .mapTo(Integer.class).one()));
        lease.close();
        assertFalse(lease.held());
        assertEquals(List.of(), network.leases().holdings());
    }
}
