package io.meshcontrol.server.listener;

import static org.junit.jupiter.api.Assertions.assertSame;

import io.undertow.connector.ByteBufferPool;
import io.undertow.connector.PooledByteBuffer;
import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class BufferPoolsTest {

    @Test
    void aBufferFreedOnOneVirtualThreadIsUsedAgainByTheNext() throws InterruptedException {
        ByteBufferPool pool = BufferPools.shared(1024);
        AtomicReference<ByteBuffer> first = new AtomicReference<>();
        AtomicReference<ByteBuffer> second = new AtomicReference<>();
        Thread.ofVirtual().start(() -> {
            PooledByteBuffer buffer = pool.allocate();
            first.set(buffer.getBuffer());
            buffer.close();
        }).join();
        Thread.ofVirtual().start(() -> {
            try (PooledByteBuffer buffer = pool.allocate()) {
                second.set(buffer.getBuffer());
            }
        }).join();
        assertSame(first.get(), second.get(), "a new virtual thread takes the freed buffer, not a new allocation");
    }
}
