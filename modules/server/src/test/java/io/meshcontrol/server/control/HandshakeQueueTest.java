package io.meshcontrol.server.control;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Handshakes wait newest first, on a bounded number of threads that end when there is nothing to do. */
class HandshakeQueueTest {

    private static final long WAIT_SECONDS = 20;

    @Test
    void theNewestWaitingHandshakeRunsFirst() throws Exception {
        HandshakeQueue queue = new HandshakeQueue(1);
        CountDownLatch busy = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        List<String> order = Collections.synchronizedList(new ArrayList<>());
        CountDownLatch done = new CountDownLatch(4);
        queue.execute(() -> {
            busy.countDown();
            await(release);
            order.add("running");
            done.countDown();
        });
        assertTrue(busy.await(WAIT_SECONDS, TimeUnit.SECONDS));
        for (String name : List.of("oldest", "middle", "newest")) {
            queue.execute(() -> {
                order.add(name);
                done.countDown();
            });
        }
        release.countDown();
        assertTrue(done.await(WAIT_SECONDS, TimeUnit.SECONDS));
        assertEquals(List.of("running", "newest", "middle", "oldest"), order);
    }

    @Test
    void noMoreThanItsThreadsRunAtOnceAndAllRun() throws Exception {
        HandshakeQueue queue = new HandshakeQueue(2);
        AtomicInteger now = new AtomicInteger();
        AtomicInteger most = new AtomicInteger();
        CountDownLatch done = new CountDownLatch(200);
        for (int i = 0; i < 200; i++) {
            queue.execute(() -> {
                most.accumulateAndGet(now.incrementAndGet(), Math::max);
                try {
                    Thread.sleep(1);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                now.decrementAndGet();
                done.countDown();
            });
        }
        assertTrue(done.await(WAIT_SECONDS, TimeUnit.SECONDS));
        assertEquals(2, most.get(), "two at once, never more");
    }

    @Test
    void aFailingHandshakeDoesNotStopTheNextAndIdleThreadsEnd() throws Exception {
        HandshakeQueue queue = new HandshakeQueue(1);
        CountDownLatch ran = new CountDownLatch(1);
        try (LogCapture log = new LogCapture()) {
            queue.execute(() -> {
                throw new IllegalStateException("broken");
            });
            queue.execute(ran::countDown);
            assertTrue(ran.await(WAIT_SECONDS, TimeUnit.SECONDS));
            assertTrue(log.settledLines().stream().anyMatch(line -> line.contains("a ts2021 handshake failed")));
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
        while (queue.threads() > 0 && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        assertEquals(0, queue.threads(), "a thread with nothing to do ends");
        CountDownLatch again = new CountDownLatch(1);
        queue.execute(again::countDown);
        assertTrue(again.await(WAIT_SECONDS, TimeUnit.SECONDS), "and a new one starts for the next handshake");
    }

    @Test
    void atLeastOneThread() {
        assertThrows(IllegalArgumentException.class, () -> new HandshakeQueue(0));
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await(WAIT_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
