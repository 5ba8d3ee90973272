package io.meshcontrol.core.state;

import io.meshcontrol.core.auth.Caller;
import io.meshcontrol.core.model.AuditEntry;
import io.meshcontrol.core.store.AuditStore;
import io.meshcontrol.core.store.ChangeLog;
import io.meshcontrol.core.store.Dialect;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;

/**
 * The one way a caller's change is made: the caller's permission is checked first, then the change reads what is kept
 * now, derives the new value from it, and writes it with its audit entry in one transaction, under the database's
 * single writer lock. What it puts in force in memory ({@link InForce}) or publishes on the feed takes effect as that
 * transaction commits, still under the lock. So every change starts from all the changes acknowledged before it: two
 * parallel changes of one setting (a nameserver here, a search path there) both stay. A change that only reads, then
 * saves what it read in a later transaction, would lose the other one.
 * <p>
 * A change that writes any row must write its audit entry too: one that does not is rolled back and fails (a
 * programming error, never a caller's). The entries it wrote are its change descriptors: once it has committed they go
 * out on the change feed ({@link StateChange.Recorded}), after what the change put in force, for readers that follow
 * every administrative change.
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

    /**
     * What a caller must hold for a change, checked before anything is read: a scope, or a rule of its own (key
     * minting). A rule that depends on what is kept is checked again inside the change.
     */
    @FunctionalInterface
    interface Permission {
        /**
         * For a change whose permission is a rule of its own, checked before anything is written: by the change, when
         * it depends on what is kept, or by the one entry point that leads to it.
         */
        Permission OWN_RULE = caller -> { };

        void require(Caller caller);
    }

    /** More entries than one change writes (a bulk change writes one per item, and is bounded far below this). */
    private static final int MOST_ENTRIES = 10_000;

    private final Jdbi jdbi;
    /** How the engine tells whether a transaction wrote rows. */
    private final Dialect dialect;
    private final AuditStore audit;
    private final Snapshots feed;
    private final Clock clock;

    Writer(Jdbi jdbi, Dialect dialect, AuditStore audit, Snapshots feed, Clock clock) {
        this.jdbi = jdbi;
        this.dialect = dialect;
        this.audit = audit;
        this.feed = feed;
        this.clock = clock;
    }

    /**
     * Runs {@code change} for {@code caller}, who needs {@code scope}, in one write transaction.
     *
     * @return what the change returned, once its transaction committed
     * @throws IllegalStateException when the change wrote rows but no audit entry (nothing is saved then)
     */
    <R> R change(Caller caller, String scope, Change<R> change) {
        return change(caller, held -> held.require(scope), change);
    }

    /**
     * Runs {@code change} for {@code caller}, who must pass {@code permission}, in one write transaction.
     *
     * @return what the change returned, once its transaction committed
     * @throws IllegalStateException when the change wrote rows but no audit entry (nothing is saved then)
     */
    <R> R change(Caller caller, Permission permission, Change<R> change) {
        permission.require(caller);
        return jdbi.inTransaction(h -> {
            long rowsBefore = dialect.rowsChangedSoFar(h);
            long lastEntry = audit.lastId(h);
            // The time is taken under the lock, so entries written one after the other are dated in that order.
            R result = change.apply(h, clock.instant());
            List<AuditEntry> recorded = audit.after(h, lastEntry, MOST_ENTRIES);
            if (recorded.isEmpty() && dialect.rowsChangedSoFar(h) != rowsBefore) {
                throw new IllegalStateException("a change by " + caller.actor()
                        + " wrote rows without an audit entry; nothing was saved");
            }
            // Other instances put the entries on their feeds too (after the change's own rows, as here).
            recorded.forEach(entry -> feed.logChange(h, ChangeLog.Kind.AUDIT, Long.toString(entry.id())));
            h.afterCommit(() -> recorded.forEach(feed::recorded));
            return result;
        });
    }

    /**
     * Writes the audit entry of something no caller did (a machine's request, a lapse on the clock) in a transaction of
     * its own, and puts it on the change feed once committed, as {@link #change} does for a caller's change.
     */
    void record(AuditEntry entry) {
        jdbi.useTransaction(h -> {
            AuditEntry written = audit.append(h, entry);
            feed.logChange(h, ChangeLog.Kind.AUDIT, Long.toString(written.id()));
            h.afterCommit(() -> feed.recorded(written));
        });
    }

    /**
     * Appends {@code kind} to the change log in the change's transaction, for a value kept in memory beside the rows
     * ({@link InForce}): other instances read it again when they see the row. Nothing on SQLite.
     */
    void logChange(Handle handle, ChangeLog.Kind kind) {
        feed.logChange(handle, kind, "");
    }

    /** Runs {@code write} for {@code caller}, who needs {@code scope}, in one write transaction. */
    void write(Caller caller, String scope, Write write) {
        change(caller, scope, (h, now) -> {
            write.apply(h, now);
            return null;
        });
    }
}
