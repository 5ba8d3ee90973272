package io.meshcontrol.core.state;

import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;

/**
 * One named lease of singleton work, as this instance holds it or waits for it: a thread of its own takes it when it
 * is free or expired, renews it every third of its time to live, and gives it up on {@link #close()} so that a clean
 * stop hands it over at once. The work it guards asks {@link #held()} before each piece.
 *
 * <p>Held locally means: the last successful take or renewal was sent less than the time to live (minus a margin)
 * ago, measured by this process's monotonic clock from before the statement was sent. The database starts its expiry
 * no earlier than it ran the statement, so this instance stops counting itself the holder before any other can take
 * the lease, whatever the instances' wall clocks say.
 */
public final class Lease implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(Lease.class.getName());
    private static final Duration ASK_AT_MOST = Duration.ofSeconds(1);

    /** How the lease is asked for: the database's, or none at all for a process alone on its database. */
    interface Taker {
        /** The epoch held until the time to live from now, or empty when another holder has the lease. */
        OptionalLong take(String name, String holder, Duration ttl);

        void release(String name, String holder);
    }

    private final String name;
    private final String holder;
    private final Duration ttl;
    private final Taker taker;
    private final List<Runnable> listeners = new CopyOnWriteArrayList<>();
    private final Object signal = new Object();
    private final Thread thread;
    private volatile long heldUntilNanos;
    private volatile boolean holding;
    private volatile long epoch;
    private volatile boolean closed;
    private volatile boolean renewing = true;
    /** What the listeners were last told: held or not (the lease's thread alone reads and writes it). */
    private boolean told;

    private Lease(String name, String holder, Duration ttl, Taker taker, boolean always) {
        this.name = name;
        this.holder = holder;
        this.ttl = ttl;
        this.taker = taker;
        if (always) {
            holding = true;
            epoch = 1;
            heldUntilNanos = Long.MAX_VALUE;
            thread = null;
        } else {
            // A platform thread: it waits on a monitor most of its life, which would pin a carrier on Java 21.
            thread = Thread.ofPlatform().daemon().name("lease-" + name).unstarted(this::run);
        }
    }

    /** A lease asked of the database by {@code taker}; its thread tries to take it at once. */
    static Lease taken(String name, String holder, Duration ttl, Taker taker) {
        Lease lease = new Lease(name, holder, ttl, taker, false);
        lease.thread.start();
        return lease;
    }

    /**
     * A lease that is always held: for a process that is alone on its database (SQLite), where there is nobody to
     * hand work to, and for tests of the work itself.
     */
    public static Lease always(String name, String holder) {
        return new Lease(name, holder, Duration.ZERO, null, true);
    }

    public String name() {
        return name;
    }

    /** The instance asking: what the database records as holder while this one has it. */
    public String holder() {
        return holder;
    }

    /** True while this instance holds the lease (and may do its work). */
    public boolean held() {
        return holding && System.nanoTime() - heldUntilNanos < 0;
    }

    /** The epoch of the current holding (grows with each change of hands); meaningful while {@link #held()}. */
    public long epoch() {
        return epoch;
    }

    /** The time to live of a take or renewal; zero for a lease that is always held. */
    public Duration ttl() {
        return ttl;
    }

    /** {@code listener} is told (on the lease's thread) each time the lease is taken or lost; it only takes note. */
    public void onChange(Runnable listener) {
        listeners.add(listener);
    }

    /**
     * Hands {@code work} to {@code executor} now if this instance holds the lease already, and each time it takes the
     * lease later: singleton work that runs on a timer starts at once on the instance that took it over, not at its
     * next turn (the work may run twice for one take; it must check what is due). Nothing once the executor has
     * stopped.
     */
    public void whenTaken(Executor executor, Runnable work) {
        Runnable handOver = () -> {
            if (held()) {
                try {
                    executor.execute(work);
                } catch (RejectedExecutionException stopped) {
                    // the server is stopping
                }
            }
        };
        onChange(handOver);
        handOver.run(); // taken before the listener was added: its change is not told again
    }

    /** How often a holder renews. */
    Duration renewEvery() {
        return ttl.dividedBy(3);
    }

    /**
     * How often an instance without the lease asks for it: every second at most, so that a lease given up on a
     * clean stop moves within a second (one statement that changes nothing while another holds it).
     */
    Duration askEvery() {
        return renewEvery().compareTo(ASK_AT_MOST) < 0 ? renewEvery() : ASK_AT_MOST;
    }

    private void run() {
        while (!closed) {
            long sent = System.nanoTime();
            if (renewing) {
                try {
                    OptionalLong took = taker.take(name, holder, ttl);
                    if (took.isPresent()) {
                        epoch = took.getAsLong();
                        // A tenth of the time to live spare for the database's and this clock's rates to differ.
                        heldUntilNanos = sent + ttl.toNanos() - ttl.toNanos() / 10;
                        holding = true;
                    } else {
                        holding = false;
                    }
                } catch (RuntimeException e) {
                    // The database did not answer: a holding lapses by itself at its deadline.
                    LOG.log(Level.WARNING, "lease " + name + ": cannot reach the database: " + e.getMessage());
                }
            }
            boolean after = held();
            if (told != after) {
                told = after;
                LOG.log(Level.INFO, "lease " + name + (after ? " taken by this instance (" + holder + ", epoch "
                        + epoch + ")" : " lost by this instance (" + holder + ")"));
                listeners.forEach(Runnable::run);
            }
            pause(after ? Math.min(renewEvery().toNanos(), Math.max(1, heldUntilNanos - System.nanoTime()))
                    : askEvery().toNanos());
        }
    }

    private void pause(long nanos) {
        synchronized (signal) {
            if (!closed) {
                try {
                    signal.wait(Math.max(1, nanos / 1_000_000));
                } catch (InterruptedException e) {
                    closed = true;
                }
            }
        }
    }

    /**
     * As if this instance died: it stops renewing without giving the lease up, which then lapses by itself. For
     * tests of a takeover.
     */
    void stopRenewing() {
        renewing = false;
    }

    /** Stops renewing and gives the lease up at once if held: the next instance asking takes it. */
    @Override
    public void close() {
        if (thread == null) {
            holding = false;
            closed = true;
            return;
        }
        synchronized (signal) {
            closed = true;
            signal.notifyAll();
        }
        try {
            thread.join(Duration.ofSeconds(10));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        boolean wasHeld = held();
        holding = false;
        if (renewing) {
            try {
                taker.release(name, holder);
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "lease " + name + ": cannot give it up (it expires by itself): "
                        + e.getMessage());
            }
        }
        if (wasHeld) {
            listeners.forEach(Runnable::run);
        }
    }
}
