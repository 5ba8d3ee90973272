package io.meshcontrol.core.store;

import java.util.List;
import org.jdbi.v3.core.Handle;

/**
 * What differs between the two engines the network can be stored in, in one place: the folder of their own
 * migrations ({@code db/migration/<folder>}) and the SQL that has no common form. Every other statement is written
 * once, in SQL both engines run the same way.
 */
public enum Dialect {

    SQLITE("sqlite") {
        @Override
        public void lockWriters(Handle handle) {
            // SQLite has one writer anyway: IMMEDIATE transactions take its write lock when they begin.
        }

        @Override
        public boolean sharedByInstances() {
            return false;
        }

        @Override
        public long rowsChangedSoFar(Handle handle) {
            // Rows written on this connection since it was opened.
            return handle.createQuery("SELECT total_changes()").mapTo(Long.class).one();
        }

        @Override
        public List<String> tables(Handle handle) {
            return handle.createQuery("SELECT name FROM sqlite_master WHERE type = 'table' "
                    + "AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' AND name <> :history ORDER BY name")
                    .bind("history", HISTORY).mapTo(String.class).list();
        }

        @Override
        public String nowMillis() {
            // julianday('now') keeps milliseconds; 2440587.5 is the Julian day of 1970-01-01T00:00Z.
            return "CAST((julianday('now') - 2440587.5) * 86400000.0 AS INTEGER)";
        }
    },

    POSTGRES("postgres") {
        @Override
        public void lockWriters(Handle handle) {
            // Held until the transaction ends (commit or rollback), by one transaction of all instances at a time.
            handle.createQuery("SELECT pg_advisory_xact_lock(" + WRITER_LOCK + ")").mapTo(String.class).one();
        }

        @Override
        public boolean sharedByInstances() {
            return true;
        }

        @Override
        public long rowsChangedSoFar(Handle handle) {
            // The statistics of the current transaction so far, kept by the server as rows are written.
            return handle.createQuery("SELECT COALESCE(SUM(n_tup_ins + n_tup_upd + n_tup_del), 0) "
                    + "FROM pg_stat_xact_user_tables").mapTo(Long.class).one();
        }

        @Override
        public List<String> tables(Handle handle) {
            return handle.createQuery("SELECT table_name FROM information_schema.tables WHERE table_schema = "
                    + "current_schema() AND table_type = 'BASE TABLE' AND table_name <> :history "
                    + "AND table_name NOT IN (<running>) ORDER BY table_name")
                    .bind("history", HISTORY).bindList("running", RUNNING_INSTANCE_TABLES).mapTo(String.class).list();
        }

        @Override
        public String nowMillis() {
            // clock_timestamp(), not now(): the time the statement runs, not the time its transaction began.
            return "CAST(EXTRACT(EPOCH FROM clock_timestamp()) * 1000 AS BIGINT)";
        }
    };

    /**
     * The tables that describe the instances running now, not the network ({@code change_log}, {@code instances},
     * {@code node_streams}; PostgreSQL only): not the network's, so {@link #tables} leaves them out and a copy of the
     * network ({@link DatabaseCopy}) does not carry them.
     */
    static final List<String> RUNNING_INSTANCE_TABLES = List.of("change_log", "instances", "node_streams");

    /** The advisory lock every write transaction takes on PostgreSQL: any constant no other program uses ('mesh'). */
    static final long WRITER_LOCK = 0x6d657368L;

    /** Flyway's own table: which migrations ran. */
    static final String HISTORY = "flyway_schema_history";

    private final String folder;

    Dialect(String folder) {
        this.folder = folder;
    }

    /** The folder under {@code db/migration} of the migrations written for this engine alone. */
    public String folder() {
        return folder;
    }

    /**
     * A count of the rows inserted, updated or deleted that grows with every such row written in the current
     * transaction: two readings in one transaction tell whether it wrote between them.
     */
    public abstract long rowsChangedSoFar(Handle handle);

    /**
     * Called first in every transaction ({@link SerializedTransactions}): waits until no transaction of any process
     * sharing the database writes, and keeps the others waiting until this one ends. On PostgreSQL several instances
     * write one database, and a read-modify-write under READ COMMITTED is only correct when no other transaction
     * commits in between; holding one lock also makes the order in which transactions take {@code change_log}
     * sequence numbers the order in which they commit, which is what lets a reader follow the log by sequence.
     */
    public abstract void lockWriters(Handle handle);

    /** Whether several server instances may share the database (and so follow each other's changes). */
    public abstract boolean sharedByInstances();

    /** The network's tables (not Flyway's), by name. */
    public abstract List<String> tables(Handle handle);

    /**
     * An SQL expression of the database's own clock, in epoch milliseconds: what leases and delivery claims expire
     * by, so that every instance of a network measures them by one clock however skewed the instances' are.
     */
    public abstract String nowMillis();
}
