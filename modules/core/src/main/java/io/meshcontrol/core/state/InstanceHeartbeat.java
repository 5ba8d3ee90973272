package io.meshcontrol.core.state;

import io.meshcontrol.core.store.ChangeLog;
import io.meshcontrol.core.store.InstanceStore;
import java.lang.System.Logger.Level;
import java.time.Duration;
import org.jdbi.v3.core.Jdbi;

/**
 * This instance's row in {@code instances}, kept fresh (PostgreSQL): the others count the streams it holds for as long
 * as its heartbeat is recent ({@link #STALE}). Now and then it also does the housekeeping any instance may do, each
 * delete idempotent: change-log rows older than {@link #KEEP_LOG}, and rows of instances silent for
 * {@link #FORGET_SILENT} (their streams go with them).
 */
final class InstanceHeartbeat {

    private static final System.Logger LOG = System.getLogger(InstanceHeartbeat.class.getName());

    static final Duration BEAT = Duration.ofSeconds(3);
    /** A heartbeat older than this: the instance is gone, and its nodes' streams with it. */
    static final Duration STALE = Duration.ofSeconds(10);
    static final Duration FORGET_SILENT = Duration.ofMinutes(1);
    static final Duration KEEP_LOG = Duration.ofHours(1);
    private static final int BEATS_PER_HOUSEKEEPING = 20;

    private final Jdbi jdbi;
    private final ChangeLog log;
    private final Presence presence;
    private final InstanceStore instances = new InstanceStore();

    InstanceHeartbeat(Jdbi jdbi, ChangeLog log, Presence presence) {
        this.jdbi = jdbi;
        this.log = log;
        this.presence = presence;
    }

    /** Beats until interrupted. */
    void run() {
        boolean failing = false;
        for (int beat = 0; !Thread.currentThread().isInterrupted(); beat++) {
            try {
                Thread.sleep(BEAT);
                beat();
                if (beat % BEATS_PER_HOUSEKEEPING == 0) {
                    jdbi.useTransaction(h -> {
                        log.prune(h, KEEP_LOG);
                        instances.removeSilent(h, FORGET_SILENT);
                    });
                }
                failing = false;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (RuntimeException e) {
                if (!Thread.currentThread().isInterrupted() && !failing) {
                    LOG.log(Level.WARNING, "instance heartbeat failed, trying again every " + BEAT.toSeconds()
                            + " s (the other instances count this one's streams no more after " + STALE.toSeconds()
                            + " s): " + e.getMessage());
                }
                failing = true;
            }
        }
    }

    /** Renews the row; when another instance deleted it as silent, writes it and this instance's streams again. */
    void beat() {
        if (!jdbi.withHandle(h -> instances.heartbeat(h, log.instanceId()))) {
            LOG.log(Level.WARNING, "this instance was taken for gone by the others (no heartbeat for "
                    + FORGET_SILENT.toSeconds() + " s); announcing it and its streams again");
            jdbi.useTransaction(h -> {
                instances.register(h, log.instanceId(), hostName());
                presence.rewriteStreams(h);
            });
        }
    }

    /** Registers this instance, as started now. */
    void register() {
        jdbi.useHandle(h -> instances.register(h, log.instanceId(), hostName()));
    }

    /** Deletes this instance's row and its streams: a clean stop, so the others need not wait for staleness. */
    void remove() {
        jdbi.useTransaction(h -> {
            instances.remove(h, log.instanceId());
            // The others re-read who streams: their follower sees this instance gone at its next poll anyway.
        });
    }

    static String hostName() {
        try {
            return java.net.InetAddress.getLocalHost().getHostName();
        } catch (java.io.IOException e) {
            return "unknown";
        }
    }
}
