package io.meshcontrol.core.store;

import java.time.Duration;
import java.util.List;
import org.jdbi.v3.core.Handle;

/**
 * The {@code change_log} table (PostgreSQL only): what each committed change another instance must reflect in memory
 * touched, appended in the changing transaction, and the notification that wakes the other instances, sent as that
 * transaction commits. A row names what changed ({@link Kind}, a subject such as a node id), never the data: the reader
 * reads the current rows again, so applying a row twice, or late, does no harm. The log is the truth; a lost
 * notification only delays a reader until its next poll.
 * <p>
 * Every transaction takes the database's writer lock first ({@link Dialect#lockWriters}), so sequence numbers are taken
 * in commit order: a reader that has applied everything up to {@code seq} never later finds a committed row below it.
 * On SQLite ({@link #OFF}) nothing is written: one process serves the network and has no one to tell.
 */
public final class ChangeLog {

    /** The channel of LISTEN/NOTIFY that wakes the other instances. */
    public static final String CHANNEL = "svc_change_log";

    /** Does nothing: SQLite, or a database no other instance reads. */
    public static final ChangeLog OFF = new ChangeLog(null);

    /** What a row says changed; its subject names which one. */
    public enum Kind {
        /** A node row written or deleted (subject: the node id). */
        NODE,
        /** Only a node's last-seen time written (subject: the node id). */
        NODE_SEEN,
        /** A user row written or deleted (subject: the user id). */
        USER,
        /** The saved policy. */
        POLICY,
        /** Memberships granted by access requests. */
        GRANTS,
        /** The saved DNS settings. */
        DNS,
        /** The services. */
        SERVICES,
        /** The apps and their connectors. */
        APPS,
        /** The saved DERP settings (each instance puts them in force in its own relay and map). */
        DERP,
        /** An audit entry (subject: its id), for the other instances' feeds ({@code Recorded}). */
        AUDIT,
        /** A webhook delivery finished (subject: the endpoint id). */
        DELIVERY,
        /** A node's first map stream on the writing instance opened, or its last one ended (subject: the node id). */
        STREAM,
        /** A router's probe answered or not (subject: {@code <node id>:<answered>}). */
        PROBE,
        /** The tailnet lock's AUM log or its disablement. */
        TAILNET_LOCK,
        /** A document fetched from outside saved or deleted (subject: its name), such as a DERP map. */
        FETCHED
    }

    /** One row of the log. */
    public record Row(long seq, String instanceId, Kind kind, String subject) {
    }

    /** The instance this process is, naming the rows it writes; null when off. */
    private final String instanceId;

    private ChangeLog(String instanceId) {
        this.instanceId = instanceId;
    }

    /** The log of {@code dialect}: written as instance {@code instanceId} where instances share the database. */
    public static ChangeLog of(Dialect dialect, String instanceId) {
        return dialect.sharedByInstances() ? new ChangeLog(instanceId) : OFF;
    }

    /** Whether changes are written (PostgreSQL). */
    public boolean on() {
        return instanceId != null;
    }

    /** The id of this instance (null when off). */
    public String instanceId() {
        return instanceId;
    }

    /** Appends a row in the transaction of {@code handle}; the other instances are woken when it commits. */
    public void append(Handle handle, Kind kind, String subject) {
        if (instanceId == null) {
            return;
        }
        CommitListener.requireTransaction(handle);
        // One statement, one round trip: the row and its notification. PostgreSQL delivers the notification at
        // commit, never for a rollback, and sends the same one once however often a transaction asks.
        handle.createUpdate("WITH woken AS (SELECT pg_notify(:channel, '')) INSERT INTO change_log "
                        + "(instance_id, kind, subject) SELECT :instance, :kind, :subject FROM woken")
                .bind("channel", CHANNEL).bind("instance", instanceId).bind("kind", kind.name())
                .bind("subject", subject).execute();
    }

    /** As {@link #append(Handle, Kind, String)} with a numeric subject. */
    public void append(Handle handle, Kind kind, long subject) {
        append(handle, kind, Long.toString(subject));
    }

    /** The newest sequence number written so far (0 when none): where a reader starting now begins. */
    public long lastSeq(Handle handle) {
        return handle.createQuery("SELECT COALESCE(MAX(seq), 0) FROM change_log").mapTo(Long.class).one();
    }

    /** Up to {@code limit} rows after {@code seq}, oldest first. */
    public List<Row> after(Handle handle, long seq, int limit) {
        return handle.createQuery("SELECT seq, instance_id, kind, subject FROM change_log WHERE seq > :seq "
                        + "ORDER BY seq LIMIT :limit")
                .bind("seq", seq).bind("limit", limit)
                .map((rs, ctx) -> new Row(rs.getLong(1), rs.getString(2), Kind.valueOf(rs.getString(3)),
                        rs.getString(4)))
                .list();
    }

    /** Deletes the rows older than {@code age} by the database's clock; any instance may, any number of times. */
    public int prune(Handle handle, Duration age) {
        return handle.createUpdate("DELETE FROM change_log WHERE written_at < now() - make_interval(secs => :seconds)")
                .bind("seconds", (double) age.toMillis() / 1000).execute();
    }
}
