package io.meshcontrol.server.control;

import java.util.concurrent.Semaphore;
import java.util.function.Supplier;

/**
 * Lets only as many full maps be built and encoded at once as there are cores, first come first served. A full map
 * is milliseconds of CPU that never blocks, and everything the server does runs on the same few carrier threads of
 * the virtual-thread scheduler: when thousands of clients reconnect at once, unbounded map building fills the run
 * queue, and the Noise handshakes of clients still dialling wait behind it until the client's dial deadline (10 s
 * in the vendor's client) runs out and it starts over, which costs a second handshake and a second full map. With
 * the gate, waiting map requests park instead, so a handshake waits for at most a few map builds. Writing the map
 * happens outside the gate (a slow reader must not hold a permit).
 */
final class FullMapGate {

    private final Semaphore permits;

    FullMapGate(int permits) {
        this.permits = new Semaphore(permits, true);
    }

    /** One permit per core. */
    static FullMapGate perCore() {
        return new FullMapGate(Runtime.getRuntime().availableProcessors());
    }

    /** The frame {@code build} makes, built once a permit is free. */
    byte[] build(Supplier<byte[]> build) throws InterruptedException {
        permits.acquire();
        try {
            return build.get();
        } finally {
            permits.release();
        }
    }
}
