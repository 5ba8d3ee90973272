package io.meshcontrol.notify.logstream;

import io.meshcontrol.core.address.EgressGuard;
import io.meshcontrol.core.model.DerpSettings;
import io.meshcontrol.core.state.Lease;
import io.meshcontrol.core.state.LogStreams;
import io.meshcontrol.notify.AddressLookup;
import io.meshcontrol.notify.Egress;
import io.meshcontrol.notify.GuardedPost;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.logging.Level;
import java.util.logging.Logger;
import javax.net.ssl.SSLSocketFactory;

/**
 * Delivers the audit log to the configured log stream: batches of up to {@link #BATCH} entries, read after the
 * stream's cursor, each posted in the destination's shape ({@link DestinationFormats}); the cursor moves only when the
 * destination took the batch, so a failure or a restart sends the same entries again (at least once). A failed
 * request is retried after 2 s, 10 s and 30 s, then every 30 s for as long as it fails: nothing is dropped.
 * It runs on its own virtual thread, so a slow or dead destination delays nothing else. It sends only while this
 * instance holds the singleton lease (on SQLite always): with several instances one streams, and the next holder goes
 * on from the cursor, so a batch in flight when its sender died is sent again (at least once, never skipped).
 */
public final class LogStreamSender implements AutoCloseable {

    static final int BATCH = 500;
    /** Waits after the first, second and third failure in a row; later failures wait as long as the third. */
    static final List<Duration> RETRY_AFTER = List.of(Duration.ofSeconds(2), Duration.ofSeconds(10),
            Duration.ofSeconds(30));
    /** How often the sender looks for new entries. */
    private static final Duration POLL = Duration.ofSeconds(1);
    private static final Logger LOG = Logger.getLogger(LogStreamSender.class.getName());

    private final LogStreams streams;
    private final Egress egress;
    private final ScheduledExecutorService timer;
    private final GuardedPost post;
    private final Clock clock;
    private final Lease lease;
    private int failures;
    private Instant nextAttempt = Instant.MIN;
    private volatile Thread thread;

    /** A sender that is always this process's: for tests of log streaming itself. */
    public LogStreamSender(LogStreams streams, EgressGuard guard, AddressLookup lookup, Clock clock) {
        this(streams, guard, lookup, clock, Lease.always("log-stream", "this-process"));
    }

    /**
     * @param lookup resolves destination host names for the egress check (the system resolver in production)
     * @param lease  the singleton lease: entries are sent only while it is held
     */
    public LogStreamSender(LogStreams streams, EgressGuard guard, AddressLookup lookup, Clock clock, Lease lease) {
        this.lease = lease;
        this.streams = streams;
        this.egress = new Egress(guard, lookup);
        this.timer = Executors.newSingleThreadScheduledExecutor(Thread.ofVirtual().name("log-stream-timer").factory());
        this.post = new GuardedPost(timer, (SSLSocketFactory) SSLSocketFactory.getDefault(), GuardedPost.TIMEOUT);
        this.clock = clock;
    }

    /** Starts the delivery thread. */
    public void start() {
        thread = Thread.ofVirtual().name("log-stream-sender").start(() -> {
            while (!Thread.currentThread().isInterrupted()) {
                try {
                    sendDue();
                    Thread.sleep(POLL);
                } catch (InterruptedException e) {
                    return;
                } catch (RuntimeException e) {
                    LOG.log(Level.WARNING, "log stream delivery failed", e);
                }
            }
        });
    }

    /**
     * Sends what waits, batch after batch, unless a retry is not yet due; stops at the first failure.
     *
     * @return how many entries the destination took
     */
    public synchronized int sendDue() {
        if (clock.instant().isBefore(nextAttempt)) {
            return 0;
        }
        if (!lease.held()) {
            return 0; // the holder of the lease streams
        }
        int sent = 0;
        for (Optional<LogStreams.Batch> batch = streams.pending(BATCH); batch.isPresent() && lease.held();
                batch = streams.pending(BATCH)) {
            LogRequest request = DestinationFormats.of(batch.get().stream(), batch.get().entries());
            Optional<String> failure;
            try {
                failure = post(batch.get().stream().url(), request);
            } catch (RuntimeException e) {
                failure = Optional.of(e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage());
            }
            if (failure.isPresent()) {
                String error = "posting to " + DerpSettings.redactedUrl(batch.get().stream().url()) + " failed: "
                        + failure.get();
                streams.failed(batch.get(), error);
                nextAttempt = clock.instant().plus(RETRY_AFTER.get(Math.min(failures, RETRY_AFTER.size() - 1)));
                failures++;
                LOG.fine(error);
                return sent;
            }
            streams.delivered(batch.get(), request.body().length);
            sent += batch.get().entries().size();
            failures = 0;
        }
        return sent;
    }

    /** Stops the delivery thread and waits for it, so that nothing is written after the network closes. */
    @Override
    public void close() {
        Thread running = thread;
        if (running != null) {
            running.interrupt(); // a request in flight is cut: its socket closes
            try {
                running.join(Duration.ofSeconds(5));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        timer.shutdownNow();
    }

    /**
     * Posts to the address the egress guard checked (the webhooks' {@link Egress} and {@link GuardedPost}); any answer
     * but 2xx is a failure, a redirect included (never followed).
     *
     * @return why it failed, or empty when the destination took it
     */
    private Optional<String> post(String url, LogRequest request) {
        Egress.Checked checked = egress.check(url);
        if (checked instanceof Egress.Refused refused) {
            return Optional.of("the destination is refused: " + refused.reason());
        }
        GuardedPost.Answer answer = post.post((Egress.Allowed) checked, request.headers(), request.body());
        if (answer.error() != null) {
            return Optional.of(answer.error());
        }
        int status = answer.status();
        if (status >= 200 && status <= 299) {
            return Optional.empty();
        }
        return Optional.of("the destination answered " + status
                + (status >= 300 && status < 400 ? " (a redirect, which is not followed)" : ""));
    }
}
