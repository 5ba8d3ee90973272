package io.meshcontrol.core.state;

import io.meshcontrol.core.store.AuditStore;
import io.meshcontrol.core.store.ChangeLog;
import io.meshcontrol.core.store.ChangeNotifications;
import io.meshcontrol.core.store.InstanceStore;
import io.meshcontrol.core.store.NodeStore;
import io.meshcontrol.core.store.UserStore;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;

/**
 * Keeps this instance in step with the others on the same PostgreSQL database: reads the {@link ChangeLog} rows after
 * the last one it applied, and for each that another instance wrote, reads what it names again and puts it on this
 * instance's feed ({@link Snapshots}, {@link Policies}, the map context...), so this instance's map streams send their
 * nodes the deltas. Woken by a notification when rows commit; without one, it reads the log every
 * {@link #POLL} anyway, so a lost notification only delays a change.
 * <p>
 * A batch is read and applied in one transaction, under the writer lock of every instance: nothing commits while it
 * reads, so what it reads is the newest state, and a local change committed after it is applied after it. Each poll
 * also looks at which instances are alive: when one stopped beating, the streams it held count no more.
 */
final class ChangeFollower {

    private static final System.Logger LOG = System.getLogger(ChangeFollower.class.getName());

    /** How often the log is read without a notification. */
    static final Duration POLL = Duration.ofSeconds(1);
    /** Rows applied in one transaction at most. */
    private static final int BATCH = 500;

    /** What the follower applies rows to: the state services of this instance. */
    record Targets(Snapshots snapshots, NodeStore nodes, UserStore users, AuditStore audit, Policies policies,
            AccessRequests accessRequests, Dns dns, VipServices services, Apps apps, SavedDerpSettings derp,
            Presence presence, RouteElection routeElection, TailnetLock tailnetLock, FetchedDocuments fetched) {
    }

    private final Jdbi jdbi;
    private final ChangeLog log;
    private final InstanceStore instances = new InstanceStore();
    private final Targets targets;
    private final Duration stale;
    private long applied;
    private Set<String> alive = Set.of();

    /**
     * @param startSeq the last row written before this instance read its state: it follows the rows after it
     * @param stale how old a heartbeat may be before its instance counts as gone
     */
    ChangeFollower(Jdbi jdbi, ChangeLog log, long startSeq, Targets targets, Duration stale) {
        this.jdbi = jdbi;
        this.log = log;
        this.applied = startSeq;
        this.targets = targets;
        this.stale = stale;
    }

    /** The last sequence number applied: for tests. */
    synchronized long applied() {
        return applied;
    }

    /**
     * Follows until interrupted: waits for a notification (at most {@link #POLL}), then catches up.
     *
     * @param notifications the wake-up; null to poll only
     */
    void run(ChangeNotifications notifications) {
        boolean failing = false;
        while (!Thread.currentThread().isInterrupted()) {
            try {
                if (notifications == null || failing) {
                    Thread.sleep(POLL);
                } else {
                    notifications.await(POLL);
                }
                catchUp();
                failing = false;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (RuntimeException e) {
                if (Thread.currentThread().isInterrupted()) {
                    return;
                }
                if (!failing) {
                    LOG.log(Level.WARNING, "following the other instances' changes failed, trying again every "
                            + POLL.toMillis() + " ms: " + e.getMessage());
                }
                failing = true;
            }
        }
    }

    /** Applies every row written after the last one applied, then follows the instances alive now. */
    synchronized void catchUp() {
        // Without the lock first: most polls find nothing new, and need not hold up every instance's writers.
        boolean fresh = jdbi.withHandle(log::lastSeq) > applied;
        for (boolean more = fresh; more; ) {
            more = jdbi.inTransaction(h -> {
                List<ChangeLog.Row> rows = log.after(h, applied, BATCH);
                Snapshots.followingAnotherInstance(() -> rows.stream()
                        .filter(row -> !row.instanceId().equals(log.instanceId()))
                        .forEach(row -> apply(h, row)));
                if (!rows.isEmpty()) {
                    applied = rows.getLast().seq();
                }
                return rows.size() == BATCH;
            });
        }
        jdbi.useHandle(h -> {
            Set<String> now = instances.alive(h, stale);
            if (!now.equals(alive)) {
                // An instance started or stopped beating: whose streams count changed.
                Snapshots.followingAnotherInstance(() -> targets.presence().followAllStreams(
                        instances.streams(h, log.instanceId(), stale)));
                alive = now;
            }
        });
    }

    private void apply(Handle h, ChangeLog.Row row) {
        switch (row.kind()) {
            case NODE, NODE_SEEN -> {
                long id = Long.parseLong(row.subject());
                targets.snapshots().followNode(id, targets.nodes().byId(h, id), row.kind() == ChangeLog.Kind.NODE_SEEN);
                targets.presence().reassert(id);
            }
            case USER -> {
                long id = Long.parseLong(row.subject());
                targets.snapshots().followUser(id, targets.users().byId(h, id));
            }
            case POLICY -> targets.policies().followSaved(h);
            case GRANTS -> targets.accessRequests().followGrants();
            case DNS -> targets.dns().follow(h);
            case SERVICES -> targets.services().follow(h);
            case APPS -> targets.apps().follow(h);
            case DERP -> targets.derp().followSaved();
            case AUDIT -> {
                long id = Long.parseLong(row.subject());
                targets.audit().after(h, id - 1, 1).stream().filter(entry -> entry.id() == id).findFirst()
                        .ifPresent(targets.snapshots()::recorded);
            }
            case DELIVERY -> targets.snapshots().deliveryFinished(row.subject());
            case STREAM -> {
                long id = Long.parseLong(row.subject());
                targets.presence().followStreams(id, instances.streamsOf(h, id, log.instanceId(), stale));
            }
            case PROBE -> {
                String[] parts = row.subject().split(":", 2);
                targets.routeElection().followProbe(Long.parseLong(parts[0]), Boolean.parseBoolean(parts[1]));
            }
            case TAILNET_LOCK -> targets.tailnetLock().follow(h);
            case FETCHED -> targets.fetched().follow(h, row.subject());
        }
    }
}
