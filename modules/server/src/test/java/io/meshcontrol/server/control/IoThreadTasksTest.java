package io.meshcontrol.server.control;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** One hand-over per batch, every task run, in order per thread, on the I/O thread. */
class IoThreadTasksTest {

    private final ExecutorService ioThread = Executors.newSingleThreadExecutor(r -> new Thread(r, "io"));
    private final AtomicInteger handOvers = new AtomicInteger();
    private final IoThreadTasks tasks = new IoThreadTasks(task -> {
        handOvers.incrementAndGet();
        ioThread.execute(task);
    });

    @AfterEach
    void stop() {
        ioThread.shutdownNow();
    }

    @Test
    void tasksThatArriveWhileTheThreadIsBusyAreHandedOverOnceAndRunInTheirThreadsOrder() throws Exception {
        CountDownLatch busy = new CountDownLatch(1);
        ioThread.execute(() -> await(busy));
        Map<Integer, List<Integer>> ranByProducer = new ConcurrentHashMap<>();
        List<String> ranOn = new CopyOnWriteArrayList<>();
        CountDownLatch all = new CountDownLatch(8 * 100);
        try (ExecutorService producers = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int p = 0; p < 8; p++) {
                int producer = p;
                ranByProducer.put(producer, new CopyOnWriteArrayList<>());
                producers.execute(() -> {
                    for (int i = 0; i < 100; i++) {
                        int index = i;
                        tasks.execute(() -> {
                            ranByProducer.get(producer).add(index);
                            ranOn.add(Thread.currentThread().getName());
                            all.countDown();
                        });
                    }
                });
            }
        }
        busy.countDown();
        assertTrue(all.await(10, TimeUnit.SECONDS), "every task ran");
        assertEquals(1, handOvers.get(), "800 tasks, one hand-over");
        List<Integer> inOrder = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            inOrder.add(i);
        }
        ranByProducer.values().forEach(ran -> assertEquals(inOrder, ran));
        assertTrue(ranOn.stream().allMatch("io"::equals), ranOn.toString());
    }

    @Test
    void aTaskAddedByARunningTaskRunsToo() throws Exception {
        CountDownLatch second = new CountDownLatch(1);
        tasks.execute(() -> tasks.execute(second::countDown));
        assertTrue(second.await(10, TimeUnit.SECONDS));
    }

    @Test
    void aFailingTaskDoesNotKeepTheNextFromRunning() throws Exception {
        CountDownLatch busy = new CountDownLatch(1);
        ioThread.execute(() -> await(busy));
        CountDownLatch after = new CountDownLatch(1);
        try (LogCapture log = new LogCapture()) {
            tasks.execute(() -> {
                throw new IllegalStateException("this task fails");
            });
            tasks.execute(after::countDown);
            busy.countDown();
            assertTrue(after.await(10, TimeUnit.SECONDS));
            assertTrue(log.lines().stream().anyMatch(line -> line.contains("a task on the I/O thread failed")),
                    log.lines().toString());
        }
    }

    @Test
    void onlyAnIoThreadHasItsOwn() {
        assertThrows(IllegalStateException.class, IoThreadTasks::current);
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
