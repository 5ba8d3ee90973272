package io.meshcontrol.server.control;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Full maps are built a few at a time, in the order they were asked for, and nothing else waits for them. */
class FullMapGateTest {

    @Test
    void buildsBeyondThePermitsWaitTheirTurnInOrder() throws Exception {
        FullMapGate gate = new FullMapGate(1);
        CountDownLatch firstStarted = new CountDownLatch(1);
        CountDownLatch releaseFirst = new CountDownLatch(1);
        List<String> order = new CopyOnWriteArrayList<>();
        Thread first = Thread.ofVirtual().start(() -> build(gate, order, "first", () -> {
            firstStarted.countDown();
            await(releaseFirst);
        }));
        assertTrue(firstStarted.await(10, TimeUnit.SECONDS));
        Thread second = Thread.ofVirtual().start(() -> build(gate, order, "second", () -> { }));
        waitUntilParked(second);
        Thread third = Thread.ofVirtual().start(() -> build(gate, order, "third", () -> { }));
        waitUntilParked(third);

        assertEquals(List.of(), order, "the others wait while the only permit is taken");
        releaseFirst.countDown();
        for (Thread thread : List.of(first, second, third)) {
            thread.join(10_000);
        }
        assertEquals(List.of("first", "second", "third"), order);
    }

    @Test
    void theFrameComesBackAndThePermitIsFreedWhenABuildFails() throws Exception {
        FullMapGate gate = new FullMapGate(1);
        try {
            gate.build(() -> {
                throw new IllegalStateException("node gone");
            });
        } catch (IllegalStateException expected) {
            // the permit must be back
        }
        assertArrayEquals(new byte[] {1, 2}, gate.build(() -> new byte[] {1, 2}));
    }

    private static void build(FullMapGate gate, List<String> order, String name, Runnable work) {
        try {
            gate.build(() -> {
                work.run();
                order.add(name);
                return new byte[0];
            });
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Until the thread waits for a permit (it cannot get one while the first holds it). */
    private static void waitUntilParked(Thread thread) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (thread.getState() != Thread.State.WAITING && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        assertEquals(Thread.State.WAITING, thread.getState());
    }
}
