package io.meshcontrol.core.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.core.model.LeaseHolding;
import io.meshcontrol.core.testing.Await;
import io.meshcontrol.core.testing.PostgresCluster;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.io.TempDir;

/** The lease SQL, the same on both engines, with each engine's own clock. */
class LeaseStoreTest {

    private static final StatementLogger QUIET = new StatementLogger(false, true, Duration.ZERO, false);
    private static final Duration MINUTE = Duration.ofMinutes(1);

    @TempDir
    Path folder;

    Database open(Dialect dialect) {
        if (dialect == Dialect.SQLITE) {
            return Database.open(folder.resolve("db.sqlite"), true);
        }
        Assumptions.assumeTrue(PostgresCluster.installed(), "PostgreSQL is not installed (run-tests installs it)");
        return Database.open(PostgresCluster.shared().newDatabase(), QUIET);
    }

    @ParameterizedTest
    @EnumSource(Dialect.class)
    void aLeaseIsTakenWhenFreeKeptByItsHolderAndGivenUp(Dialect dialect) {
        try (Database db = open(dialect)) {
            LeaseStore store = new LeaseStore(dialect);
            assertEquals(OptionalLong.of(1), db.jdbi().withHandle(h -> store.acquire(h, "singleton", "a", MINUTE)));
            assertEquals(OptionalLong.empty(), db.jdbi().withHandle(h -> store.acquire(h, "singleton", "b", MINUTE)),
                    "held by another");
            assertEquals(OptionalLong.of(1), db.jdbi().withHandle(h -> store.acquire(h, "singleton", "a", MINUTE)),
                    "a renewal keeps the epoch");
            List<LeaseHolding> held = db.jdbi().withHandle(store::held);
            assertEquals(1, held.size());
            assertEquals("a", held.getFirst().holder());
            Duration remaining = held.getFirst().remaining();
            assertTrue(remaining.compareTo(MINUTE) <= 0 && remaining.compareTo(Duration.ofSeconds(50)) > 0,
                    "a minute by the database's clock: " + remaining);

            db.jdbi().useHandle(h -> store.release(h, "singleton", "b")); // not b's: nothing happens
            assertEquals("a", db.jdbi().withHandle(store::held).getFirst().holder());
            db.jdbi().useHandle(h -> store.release(h, "singleton", "a"));
            assertEquals(List.of(), db.jdbi().withHandle(store::held));
            assertEquals(OptionalLong.of(2), db.jdbi().withHandle(h -> store.acquire(h, "singleton", "b", MINUTE)),
                    "the epoch grows as the lease changes hands");
        }
    }

    @ParameterizedTest
    @EnumSource(Dialect.class)
    void anExpiredLeaseIsTakenOver(Dialect dialect) throws InterruptedException {
        try (Database db = open(dialect)) {
            LeaseStore store = new LeaseStore(dialect);
            db.jdbi().withHandle(h -> store.acquire(h, "singleton", "a", Duration.ofMillis(1)));
            Await.until("the lease expired and b took it", () -> db.jdbi().withHandle(h -> store.acquire(h,
                    "singleton", "b", MINUTE)).isPresent());
            assertEquals(OptionalLong.empty(), db.jdbi().withHandle(h -> store.acquire(h, "singleton", "a", MINUTE)));
        }
    }
}
