package io.meshcontrol.core.netmap;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.core.netmap.frames.MapFrame;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Full maps are built a few at a time, in the order they were asked for, and only while the maps not yet written to
 * their clients leave room for more.
 */
class FullMapGateTest {

    @Test
    void buildsBeyondThePermitsWaitTheirTurnInOrder() throws Exception {
        FullMapGate gate = new FullMapGate(1, 1 << 20);
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
    void aMapWaitsToBeBuiltWhileMapsNotYetWrittenFillTheBudget() throws Exception {
        FullMapGate gate = new FullMapGate(2, 100 << 10);
        List<String> order = new CopyOnWriteArrayList<>();
        // the next maps reserve 60 KiB
        gate.buildAndWrite(() -> MapFrame.of(new byte[60 << 10]), frame -> order.add("sized"));
        assertEquals(100, gate.freeKiB(), "a written map frees its room");

        CountDownLatch slowReaderHasIt = new CountDownLatch(1);
        CountDownLatch slowReaderReads = new CountDownLatch(1);
        Thread slow = Thread.ofVirtual().start(() -> write(gate, order, "slow reader", 60 << 10, () -> {
            slowReaderHasIt.countDown();
            await(slowReaderReads);
        }));
        assertTrue(slowReaderHasIt.await(10, TimeUnit.SECONDS));
        Thread next = Thread.ofVirtual().start(() -> write(gate, order, "next", 60 << 10, () -> { }));
        waitUntilParked(next);
        assertEquals(List.of("sized", "built slow reader"), order,
                "60 + 60 KiB would exceed the budget: the next map is not built yet");

        slowReaderReads.countDown();
        slow.join(10_000);
        next.join(10_000);
        assertEquals(List.of("sized", "built slow reader", "built next"), order.stream()
                .filter(entry -> !entry.startsWith("wrote")).toList());
        assertEquals(100, gate.freeKiB(), "all room is back");

        gate.buildAndWrite(() -> MapFrame.of(new byte[500 << 10]), frame -> order.add("huge"));
        assertEquals("huge", order.getLast(), "a map larger than the whole budget still goes");
        assertEquals(100, gate.freeKiB());
    }

    @Test
    void theFrameIsWrittenAndThePermitsAreFreedWhenABuildFails() throws Exception {
        FullMapGate gate = new FullMapGate(1, 1 << 20);
        try {
            gate.buildAndWrite(() -> {
                throw new IllegalStateException("node gone");
            }, frame -> { });
        } catch (IllegalStateException expected) {
            // the permits must be back
        }
        byte[][] written = new byte[1][];
        gate.buildAndWrite(() -> MapFrame.of(new byte[] {1, 2}), frame -> written[0] = frame.bytes());
        assertArrayEquals(new byte[] {1, 2}, written[0]);
        assertEquals(1024, gate.freeKiB());
    }

    private static void build(FullMapGate gate, List<String> order, String name, Runnable work) {
        try {
            gate.buildAndWrite(() -> {
                work.run();
                order.add(name);
                return MapFrame.of(new byte[0]);
            }, frame -> { });
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Builds a map of {@code size} bytes, then "writes" it: {@code reading} stands for the client reading it. */
    private static void write(FullMapGate gate, List<String> order, String name, int size, Runnable reading) {
        try {
            gate.buildAndWrite(() -> {
                order.add("built " + name);
                return MapFrame.of(new byte[size]);
            }, frame -> {
                reading.run();
                order.add("wrote " + name);
            });
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
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
