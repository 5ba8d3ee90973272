package io.meshcontrol.notify;

import io.meshcontrol.core.model.PendingDelivery;
import io.meshcontrol.core.model.WebhookTarget;
import io.meshcontrol.core.state.Webhooks;
import java.lang.System.Logger.Level;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * Attempts the deliveries in the outbox, which changes fill in their own transactions ({@link Webhooks#deliverWith}):
 * the worker's own thread reads what is due and attempts it, at most {@link #IN_FLIGHT} at a time server-wide, each
 * on a virtual thread. A failed attempt worth retrying is due again after {@link #RETRY_AFTER}'s next step; after the
 * last one, or on a final answer, the delivery moves to the endpoint's history. Pending rows survive a restart and
 * are attempted when the worker starts again. Times come from the injected clock.
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

    private final Webhooks webhooks;
    private final Map<Boolean, Courier> couriers;
    private final Clock clock;
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
     */
    DeliveryWorker(Webhooks webhooks, Courier http, Courier mail, Clock clock) {
        this.webhooks = webhooks;
        this.couriers = Map.of(false, http, true, mail);
        this.clock = clock;
        this.thread = Thread.ofPlatform().daemon().name("webhook-deliveries").unstarted(this::run);
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
                launchDue();
                await(webhooks.nextDue());
            } catch (RuntimeException e) {
                LOG.log(Level.ERROR, "webhook delivery worker failed; retrying", e);
                sleep();
            }
        }
    }

    private void await(Optional<Instant> nextDue) {
        synchronized (signal) {
            if (!wakeUp && !closed) {
                try {
                    // Pending work: look again soon (the clock may be moved); none: sleep until a change writes some.
                    signal.wait(nextDue.isPresent() ? POLL_MILLIS : 0);
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
        for (PendingDelivery pending : webhooks.due(free + inFlight.size())) {
            if (inFlight.contains(pending.id())) {
                continue;
            }
            if (!permits.tryAcquire()) {
                return;
            }
            inFlight.add(pending.id());
            attempts.execute(() -> {
                try {
                    attempt(pending);
                } catch (RuntimeException e) {
                    LOG.log(Level.ERROR, "webhook delivery " + pending.id() + " failed", e);
                } finally {
                    inFlight.remove(pending.id());
                    permits.release();
                    wake();
                }
            });
        }
    }

    private void attempt(PendingDelivery pending) {
        Optional<WebhookTarget> target = webhooks.target(pending.endpointId());
        if (target.isEmpty() || !webhooks.isPendingAsRead(pending)) {
            return; // deleted meanwhile with its outbox rows, or attempted by an earlier read of the due rows
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
            attempts.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
