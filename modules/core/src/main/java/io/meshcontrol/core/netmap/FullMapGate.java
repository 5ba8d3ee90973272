package io.meshcontrol.core.netmap;

import io.meshcontrol.core.netmap.frames.MapFrame;
import java.io.IOException;
import java.util.concurrent.Semaphore;
import java.util.function.Supplier;

/**
 * Bounds the full maps in progress, first come first served, in two ways.
 *
 * <p>Building: only as many full maps are built and encoded at once as there are cores. A full map is milliseconds
 * of CPU that never blocks, and everything the server does runs on the same few carrier threads of the
 * virtual-thread scheduler: when thousands of clients reconnect at once, unbounded map building fills the run queue,
 * and the Noise handshakes of clients still dialling wait behind it until the client's dial deadline (10 s in the
 * vendor's client) runs out and it starts over, which costs a second handshake and a second full map. With the
 * gate, waiting map requests park instead, so a handshake waits for at most a few map builds.
 *
 * <p>Memory: a built map stays in memory (and its encrypted copy with it) until its client has read it. In a mass
 * reconnect thousands of clients are sent maps of thousands of peers at once, and slow readers held them all: at
 * N = 2,000 that was over 700 MB of maps waiting to be written, enough to run a 1 GiB heap out of memory. So the
 * maps built and not yet written may together take at most a budget of bytes; a map request waits for room before
 * it builds. As the size of a map is known only once it is built, each reserves the size of the last full map
 * built (maps of one network are of much the same size) and settles the difference afterwards without waiting
 * (a map larger than the whole budget counts as the whole budget, so that it is never refused). A map counts at its
 * full length, though most of it is kept blocks shared with other maps: its encrypted copy is its own.
 */
final class FullMapGate {

    /** Writes a built map to its client; returns once the map is handed to the connection. */
    @FunctionalInterface
    interface Writer {
        void write(MapFrame frame) throws IOException;
    }

    private static final long MIN_BUDGET_BYTES = 64L << 20;

    private final Semaphore builds;
    private final Semaphore memoryKiB;
    private final int budgetKiB;
    private volatile int lastMapKiB = 1;

    FullMapGate(int builds, long budgetBytes) {
        this.builds = new Semaphore(builds, true);
        this.budgetKiB = (int) Math.max(1, Math.min(Integer.MAX_VALUE, budgetBytes >> 10));
        this.memoryKiB = new Semaphore(budgetKiB, true);
    }

    /** One build per core; an eighth of the maximum heap (at least 64 MiB) for maps waiting to be written. */
    static FullMapGate perCore() {
        return new FullMapGate(Runtime.getRuntime().availableProcessors(),
                Math.max(MIN_BUDGET_BYTES, Runtime.getRuntime().maxMemory() / 8));
    }

    /** Builds the map once a build and room for it are free, writes it, and frees its room once written. */
    void buildAndWrite(Supplier<MapFrame> build, Writer writer) throws InterruptedException, IOException {
        int held = Math.min(lastMapKiB, budgetKiB);
        memoryKiB.acquire(held);
        try {
            MapFrame frame = build(build);
            int size = (int) Math.min(budgetKiB, (frame.length() + 1023L) >> 10);
            lastMapKiB = Math.max(1, size);
            if (size < held) {
                memoryKiB.release(held - size);
                held = size;
            } else if (size > held && memoryKiB.tryAcquire(size - held)) {
                held = size;
            }
            writer.write(frame);
        } finally {
            memoryKiB.release(held);
        }
    }

    private MapFrame build(Supplier<MapFrame> build) throws InterruptedException {
        builds.acquire();
        try {
            return build.get();
        } finally {
            builds.release();
        }
    }

    /** Room left for maps waiting to be written, in KiB (tests). */
    int freeKiB() {
        return memoryKiB.availablePermits();
    }
}
