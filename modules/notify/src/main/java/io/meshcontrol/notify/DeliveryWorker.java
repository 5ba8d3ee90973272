package io.meshcontrol.notify;

import io.meshcontrol.core.RandomText;
import io.meshcontrol.core.model.PendingDelivery;
import io.meshcontrol.core.model.WebhookTarget;
import io.meshcontrol.core.state.Lease;
import io.meshcontrol.core.state.Webhooks;
import java.lang.System.Logger.Level;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Attempts the deliveries in the outbox, which changes fill in their own transactions ({@link Webhooks#deliverWith}):
 * the worker's own thread reads what is due and attempts it, at most {@link #IN_FLIGHT} at a time server-wide, each
 * on a virtual thread. A failed attempt worth retrying is due again after {@link #RETRY_AFTER}'s next step; after the
 * last one, or on a final answer, the delivery moves to the endpoint's history. Pending rows survive a restart and
 * are attempted when the worker starts again. Times come from the injected clock.
 *
 * <p>Only the holder of the delivery lease attempts anything. Each delivery it attempts is claimed in the database
 * first ({@link Webhooks#claimDue}) for {@link #CLAIM_FOR}, and an attempt still running near the end of its claim
 * is cut short: so no two workers (of this instance or of others, during a lease handover too) attempt one delivery at
 * the same time, and a delivery a dead instance had in flight is attempted again once its claim ran out (at least
 * once). A worker that stops ends its claims, so what it did not finish is attempted by the next holder at once.
 */
final class DeliveryWorker implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(DeliveryWorker.class.getName());

    /** The spec's cap on deliveries in flight, server-wide. */
    static final int IN_FLIGHT = 16;
    /** The waits before the three retries. */
    static final List<Duration> RETRY_AFTER = List.of(Duration.ofSeconds(2), Duration.ofSeconds(10),
            Duration.ofSeconds(30));
    /** How often a worker with pending deliveries looks at the clock (which tests move). */
    private static final long POLL_MILLIS = 200;
    /**
     * How long a claim keeps other workers off a delivery: well beyond an attempt, which its timeouts (15 s a step)
     * bound, since an attempt outliving its claim could run beside another's.
     */
    static final Duration CLAIM_FOR = Duration.ofSeconds(60);
    /** An attempt still running this long before its claim runs out is interrupted. */
    static final Duration CLAIM_MARGIN = Duration.ofSeconds(10);

    private final Webhooks webhooks;
    private final Map<Boolean, Courier> couriers;
    private final Clock clock;
    private final Lease lease;
    private final long idlePollMillis;
    /** The start of this worker's claim texts; each claim adds a number. */
    private final String claims;
    private final AtomicLong claimNumber = new AtomicLong();
    private final ScheduledExecutorService watchdog;
    private final Semaphore permits = new Semaphore(IN_FLIGHT);
    private final Set<Long> inFlight = ConcurrentHashMap.newKeySet();
    private final ExecutorService attempts = Executors.newVirtualThreadPerTaskExecutor();
    private final Object signal = new Object();
    private final Thread thread;
    private volatile boolean closed;
    private volatile boolean wakeUp;

    /**
     * @param http   attempts to http(s) endpoints
     * @param mail   attempts to e-mail endpoints
     * @param lease  the delivery lease: the worker attempts deliveries only while it is held
     * @param idlePoll how often an idle holder looks for deliveries written by other instances (which cannot wake
     *                 it); zero when no other instance writes (SQLite)
     */
    DeliveryWorker(Webhooks webhooks, Courier http, Courier mail, Clock clock, Lease lease, Duration idlePoll) {
        this.webhooks = webhooks;
        this.couriers = Map.of(false, http, true, mail);
        this.clock = clock;
        this.lease = lease;
        this.idlePollMillis = idlePoll.toMillis();
        this.claims = lease.holder() + "-" + RandomText.alphanumeric(8) + ":";
        this.watchdog = Executors.newSingleThreadScheduledExecutor(
                Thread.ofPlatform().daemon().name("webhook-claims").factory());
        this.thread = Thread.ofPlatform().daemon().name("webhook-deliveries").unstarted(this::run);
        lease.onChange(this::wake);
    }

    DeliveryWorker start() {
        thread.start();
        return this;
    }

    /** Looks for due deliveries now (new outbox rows, a moved clock). */
    void wake() {
        synchronized (signal) {
            wakeUp = true;
            signal.notifyAll();
        }
    }

    private void run() {
        while (!closed) {
            try {
                if (!lease.held()) {
                    await(false, 0); // until the lease is taken (or the worker stops)
                    continue;
                }
                launchDue();
                await(true, webhooks.nextDue().isPresent() ? POLL_MILLIS : idlePollMillis);
            } catch (RuntimeException e) {
                LOG.log(Level.ERROR, "webhook delivery worker failed; retrying", e);
                sleep();
            }
        }
    }

    /**
     * Pending work: look again soon (the clock may be moved); none: sleep until a change writes some (or another
     * instance may have: {@code idlePollMillis}).
     */
    private void await(boolean holding, long millis) {
        synchronized (signal) {
            if (!wakeUp && !closed && holding == lease.held()) {
                try {
                    signal.wait(millis);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    closed = true;
                }
            }
            wakeUp = false;
        }
    }

    private void launchDue() {
        int free = permits.availablePermits();
        if (free == 0) {
            return;
        }
        long claimed = System.nanoTime();
        for (PendingDelivery pending : webhooks.claimDue(free, claims + claimNumber.incrementAndGet(), CLAIM_FOR)) {
            if (inFlight.contains(pending.id())) {
                continue; // an attempt of this worker outlived its claim: it ends by itself before the new one
            }
            if (!permits.tryAcquire()) {
                return;
            }
            inFlight.add(pending.id());
            attempts.execute(() -> {
                // The claim's end by this process's clock, measured from before it was asked for.
                long left = CLAIM_FOR.minus(CLAIM_MARGIN).toNanos() - (System.nanoTime() - claimed);
                Thread attempt = Thread.currentThread();
                var cut = watchdog.schedule(attempt::interrupt, left, TimeUnit.NANOSECONDS);
                try {
                    attempt(pending);
                } catch (RuntimeException e) {
                    LOG.log(Level.ERROR, "webhook delivery " + pending.id() + " failed", e);
                } finally {
                    cut.cancel(false);
                    inFlight.remove(pending.id());
                    permits.release();
                    wake();
                }
            });
        }
    }

    private void attempt(PendingDelivery pending) {
        Optional<WebhookTarget> target = webhooks.target(pending.endpointId());
        if (target.isEmpty()) {
            return; // deleted meanwhile with its outbox rows
        }
        boolean mail = "email".equals(target.get().endpoint().provider());
        long started = System.nanoTime();
        Outcome outcome = couriers.get(mail).attempt(target.get(), pending);
        Duration took = Duration.ofNanos(System.nanoTime() - started);
        int attempts = pending.attempts() + 1;
        if (outcome.kind() == Outcome.Kind.RETRY && attempts <= RETRY_AFTER.size()) {
            webhooks.retryAt(pending, attempts, clock.instant().plus(RETRY_AFTER.get(attempts - 1)));
            return;
        }
        webhooks.finish(pending, outcome.status(), outcome.error(), attempts, took);
        if (outcome.error() != null) {
            LOG.log(Level.INFO, "webhook delivery to endpoint " + pending.endpointId() + " failed after "
                    + attempts + " attempt(s): " + outcome.error());
        }
    }

    private static void sleep() {
        try {
            Thread.sleep(1000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        closed = true;
        wake();
        attempts.shutdownNow(); // interrupts attempts under way: a blocked socket read ends at once
        try {
            thread.join(TimeUnit.SECONDS.toMillis(10));
            // Nothing touches the database once this returns; an attempt cut short stays pending for the next start.
            if (attempts.awaitTermination(10, TimeUnit.SECONDS)) {
                // Nothing of this worker runs any more: the next holder may attempt what it claimed at once.
                webhooks.releaseClaims(claims);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "cannot end this worker's delivery claims (they run out by themselves): "
                    + e.getMessage());
        } finally {
            watchdog.shutdownNow();
        }
    }
}
