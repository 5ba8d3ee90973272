package io.meshcontrol.core.state;

import io.meshcontrol.core.auth.Caller;
import java.time.Clock;
import java.time.Instant;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;

/**
 * The one way a caller's change is made: the caller's permission is checked first, then the change reads what is kept
 * now, derives the new value from it, and writes it with its audit entry in one transaction, under the database's
 * single writer lock. What it puts in force in memory ({@link InForce}) or publishes on the feed takes effect as that
 * transaction commits, still under the lock. So every change starts from all the changes acknowledged before it: two
 * parallel changes of one setting (a nameserver here, a search path there) both stay. A change that only reads, then
 * saves what it read in a later transaction, would lose the other one. (Services not moved here yet, such as nodes
 * and users, follow the same rule with their own transactions: the read belongs inside the one that writes.)
 */
final class Writer {

    /** A read-modify-write: reads and writes through {@code handle}, its transaction; {@code now} is its time. */
    @FunctionalInterface
    interface Change<R> {
        R apply(Handle handle, Instant now);
    }

    /** A read-modify-write that answers nothing. */
    @FunctionalInterface
    interface Write {
        void apply(Handle handle, Instant now);
    }

    private final Jdbi jdbi;
    private final Clock clock;

    Writer(Jdbi jdbi, Clock clock) {
        this.jdbi = jdbi;
        this.clock = clock;
    }

    /**
     * Runs {@code change} for {@code caller}, who needs {@code scope}, in one write transaction.
     *
     * @return what the change returned, once its transaction committed
     */
    <R> R change(Caller caller, String scope, Change<R> change) {
        caller.require(scope);
        // The time is taken under the lock, so entries written one after the other are dated in that order.
        return jdbi.inTransaction(h -> change.apply(h, clock.instant()));
    }

    /** Runs {@code write} for {@code caller}, who needs {@code scope}, in one write transaction. */
    void write(Caller caller, String scope, Write write) {
        change(caller, scope, (h, now) -> {
            write.apply(h, now);
            return null;
        });
    }
}
