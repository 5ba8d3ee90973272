package io.meshcontrol.server.control;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.Executor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;

/**
 * Where ts2021 handshakes wait for a thread: newest first, on at most {@code threads} platform threads of their own,
 * started when handshakes arrive and ended when none have come for a second.
 *
 * <p>Why newest first: a client gives its dial about 10 s. When 10,000 clients reconnect at once the handshakes
 * queue, and served in arrival order each waits longer than the one before, until every handshake served is for a
 * client that gave up meanwhile and will dial again: the work is lost and the queue does not shrink (runs 25 to 27
 * at N = 10,000: 7,000 to 48,000 failed dials). Served newest first, the handshakes done are for clients still
 * waiting, and the oldest sink until they are too old to be worth doing ({@link NoiseUpgradeHandler} turns those
 * away without the X25519 work). Why platform threads: the virtual threads' scheduler runs what is ready in
 * arrival order, so a handshake waited behind every map session ready to run; the kernel shares the cores between
 * these threads and the carriers instead.
 */
final class HandshakeQueue implements Executor {

    private static final System.Logger LOG = System.getLogger(HandshakeQueue.class.getName());
    /** How long a thread with nothing to do waits for the next handshake before it ends. */
    private static final long LINGER_NANOS = TimeUnit.SECONDS.toNanos(1);

    private final int threads;
    private final ThreadFactory factory = Thread.ofPlatform().name("ts2021-handshake-", 0).daemon().factory();
    private final Deque<Runnable> waiting = new ArrayDeque<>(); // guarded by this
    private int running; // guarded by this
    private int idle; // guarded by this

    /** @param threads how many handshakes run at once, at most */
    HandshakeQueue(int threads) {
        if (threads < 1) {
            throw new IllegalArgumentException("threads must be at least 1, got " + threads);
        }
        this.threads = threads;
    }

    @Override
    public void execute(Runnable handshake) {
        synchronized (this) {
            waiting.addFirst(handshake);
            if (idle > 0) {
                notify();
                return;
            }
            if (running == threads) {
                return;
            }
            running++;
        }
        factory.newThread(this::serve).start();
    }

    private void serve() {
        for (Runnable handshake = next(); handshake != null; handshake = next()) {
            try {
                handshake.run();
            } catch (RuntimeException | Error e) {
                LOG.log(System.Logger.Level.ERROR, "a ts2021 handshake failed", e);
            }
        }
    }

    /** The newest handshake waiting, or null when none came for {@link #LINGER_NANOS} (the thread then ends). */
    private synchronized Runnable next() {
        long deadline = System.nanoTime() + LINGER_NANOS;
        while (waiting.isEmpty()) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                running--;
                return null;
            }
            idle++;
            try {
                TimeUnit.NANOSECONDS.timedWait(this, left);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                running--;
                return null;
            } finally {
                idle--;
            }
        }
        return waiting.pollFirst();
    }

    /** Threads serving handshakes now (for tests). */
    synchronized int threads() {
        return running;
    }
}
