package io.meshcontrol.server.listener;

import io.undertow.connector.ByteBufferPool;
import io.undertow.server.DefaultByteBufferPool;

/**
 * Undertow's direct-buffer pools, made for a server whose handlers run on virtual threads. Undertow's pool keeps
 * freed buffers in a small cache per thread and in a shared queue of a maximum length, and a maximum of -1 (what the
 * server passed) means no shared queue: a freed buffer was kept only in the freeing thread's cache. Every virtual
 * thread (a request, a map stream) got a cache of its own, so nearly every buffer was allocated anew (zeroed direct
 * memory) and released: at N = 10,000 that was 7% of the server's CPU while nodes joined. Here every freed buffer goes
 * back to one shared queue, up to {@link #KEPT} of them, and is used again by any thread.
 */
public final class BufferPools {

    /** Freed buffers kept for reuse: 32 MiB of 16 KiB buffers, what a few thousand busy streams cycle through. */
    static final int KEPT = 2048;

    private BufferPools() {
    }

    /** A pool of direct buffers of {@code size} bytes shared by all threads. */
    public static ByteBufferPool shared(int size) {
        return new DefaultByteBufferPool(true, size, KEPT, 0);
    }
}
