package io.meshcontrol.server;

import io.meshcontrol.core.state.Lease;
import io.meshcontrol.core.state.Network;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Periodic clean-up: ephemeral nodes that stayed offline too long, pre-auth keys invalid for long enough; and the
 * changes time makes: node keys that expired ({@code nodeKeyExpired}), access grants that ran out; and the database's
 * write-ahead log checkpoint when {@code database.sqlite.wal_autocheckpoint} is 0.
 *
 * <p>All of it but the checkpoint (this process's own SQLite file) and the SSH checks' lapse (each instance's checks
 * are in its memory) is the network's work, done once: only while this instance holds the singleton lease
 * ({@link Lease}; on SQLite always).
 */
final class Housekeeping {

    private static final System.Logger LOG = System.getLogger(Housekeeping.class.getName());
    /**
     * How often the write-ahead log is checkpointed when SQLite's automatic checkpoints are off: often enough that the
     * log stays small (a busy server writes a few pages a second) and a restart reads little of it.
     */
    static final Duration CHECKPOINT_INTERVAL = Duration.ofSeconds(10);

    private Housekeeping() {
    }

    static ScheduledExecutorService start(Network network, Duration ephemeralInactivityTimeout, Lease lease) {
        ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor(
                Thread.ofPlatform().name("housekeeping").daemon().factory());
        // Check a few times per timeout so that a node goes within about a quarter of it past its time.
        long everyMillis = Math.clamp(ephemeralInactivityTimeout.toMillis() / 4, 500, 60_000);
        scheduler.scheduleWithFixedDelay(() -> singleton(lease, "ephemeral reaper",
                () -> network.nodes().reapEphemeral(ephemeralInactivityTimeout)),
                everyMillis, everyMillis, TimeUnit.MILLISECONDS);
        scheduler.scheduleWithFixedDelay(() -> singleton(lease, "pre-auth key reaper",
                () -> network.preAuthKeys().reap()), 1, 60, TimeUnit.MINUTES);
        // Time-driven changes that are events: keys that expired by themselves, access grants that ran out.
        scheduler.scheduleWithFixedDelay(() -> singleton(lease, "key expiry announcer",
                network.nodes()::announceExpiredKeys), 10, 10, TimeUnit.SECONDS);
        scheduler.scheduleWithFixedDelay(() -> singleton(lease, "access grant expiry",
                network.accessRequests()::expireGrants), 10, 10, TimeUnit.SECONDS);
        // SSH checks nobody decided lapse (audited) even when their machine stopped asking. Each instance holds the
        // checks its machines asked it about, in memory: each lapses its own, lease or not.
        scheduler.scheduleWithFixedDelay(() -> guarded("SSH check expiry", network.sshChecks()::dropLapsed),
                10, 10, TimeUnit.SECONDS);
        if (network.checkpointsOnSchedule()) {
            scheduler.scheduleWithFixedDelay(() -> guarded("database checkpoint", () -> {
                if (!network.checkpointDatabase()) {
                    LOG.log(Level.DEBUG, "database checkpoint: the write-ahead log was busy; the next one finishes it");
                }
            }), CHECKPOINT_INTERVAL.toMillis(), CHECKPOINT_INTERVAL.toMillis(), TimeUnit.MILLISECONDS);
        }
        return scheduler;
    }

    /** Runs {@code task} when this instance holds the lease: another instance does it otherwise. */
    private static void singleton(Lease lease, String what, Runnable task) {
        if (lease.held()) {
            guarded(what, task);
        }
    }

    private static void guarded(String what, Runnable task) {
        try {
            task.run();
        } catch (RuntimeException e) {
            LOG.log(Level.ERROR, what + " failed", e);
        }
    }
}
