package io.meshcontrol.server.control;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.lang.reflect.Proxy;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.Random;
import org.xnio.conduits.AbstractStreamSinkConduit;
import org.xnio.conduits.AbstractStreamSourceConduit;
import org.xnio.conduits.StreamSinkConduit;
import org.xnio.conduits.StreamSourceConduit;

/** Stand-ins for the socket conduits under the Noise conduits: they take and give bytes in chosen portions. */
final class ScriptedConduits {

    private ScriptedConduits() {
    }

    /** A conduit below the scripted one that fails on any call: the scripted ones override all they are asked. */
    private static <T> T unexpected(Class<T> type) {
        return type.cast(Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type}, (proxy, method, args) -> {
            throw new UnsupportedOperationException("not scripted: " + method.getName());
        }));
    }

    /**
     * A socket that takes at most a random number of bytes per write, and nothing at all while {@link #blocked} is
     * set; it remembers everything it took and whether it was terminated, flushed and how often.
     */
    static final class Sink extends AbstractStreamSinkConduit<StreamSinkConduit> {
        final ByteArrayOutputStream taken = new ByteArrayOutputStream();
        private final Random random;
        private final int largestWrite;
        boolean blocked;
        boolean terminated;
        int takenAtTermination = -1;
        int writeCalls;

        Sink(long seed, int largestWrite) {
            super(unexpected(StreamSinkConduit.class));
            this.random = new Random(seed);
            this.largestWrite = largestWrite;
        }

        @Override
        public int write(ByteBuffer src) throws IOException {
            writeCalls++;
            if (terminated) {
                throw new IOException("write after termination");
            }
            if (blocked || !src.hasRemaining()) {
                return 0;
            }
            int count = Math.min(src.remaining(), 1 + random.nextInt(largestWrite));
            byte[] bytes = new byte[count];
            src.get(bytes);
            taken.writeBytes(bytes);
            return count;
        }

        @Override
        public long write(ByteBuffer[] srcs, int offset, int length) throws IOException {
            for (int i = offset; i < offset + length; i++) {
                if (srcs[i].hasRemaining()) {
                    return write(srcs[i]);
                }
            }
            return 0;
        }

        @Override
        public boolean flush() {
            return !blocked;
        }

        @Override
        public void terminateWrites() {
            terminated = true;
            takenAtTermination = taken.size();
        }

        @Override
        public boolean isWriteShutdown() {
            return terminated;
        }

        @Override
        public void truncateWrites() {
            terminated = true;
        }
    }

    /**
     * A socket that delivers a byte stream in random portions (sometimes none, as a non-blocking read does when
     * nothing has arrived), then the end of the stream; it counts read-ready requests.
     */
    static final class Source extends AbstractStreamSourceConduit<StreamSourceConduit> {
        private final ArrayDeque<ByteBuffer> script = new ArrayDeque<>();
        private final Random random;
        private final int largestRead;
        boolean ended;
        boolean readsResumed = true;
        int wakeups;
        int resumes;

        Source(long seed, int largestRead) {
            super(unexpected(StreamSourceConduit.class));
            this.random = new Random(seed);
            this.largestRead = largestRead;
        }

        /** Bytes the peer will have sent. */
        Source deliver(byte[] bytes) {
            script.add(ByteBuffer.wrap(bytes));
            return this;
        }

        /** The peer closes after what was delivered. */
        Source end() {
            ended = true;
            return this;
        }

        @Override
        public int read(ByteBuffer dst) {
            if (script.isEmpty()) {
                return ended ? -1 : 0;
            }
            if (random.nextInt(5) == 0) {
                return 0;
            }
            ByteBuffer head = script.peekFirst();
            int count = Math.min(Math.min(head.remaining(), dst.remaining()), 1 + random.nextInt(largestRead));
            dst.put(dst.position(), head, head.position(), count);
            dst.position(dst.position() + count);
            head.position(head.position() + count);
            if (!head.hasRemaining()) {
                script.pollFirst();
            }
            return count;
        }

        @Override
        public long read(ByteBuffer[] dsts, int offset, int length) {
            for (int i = offset; i < offset + length; i++) {
                if (dsts[i].hasRemaining()) {
                    return read(dsts[i]);
                }
            }
            return 0;
        }

        @Override
        public boolean isReadShutdown() {
            return false;
        }

        @Override
        public void wakeupReads() {
            wakeups++;
            readsResumed = true;
        }

        @Override
        public void resumeReads() {
            resumes++;
            readsResumed = true;
        }

        @Override
        public void suspendReads() {
            readsResumed = false;
        }

        @Override
        public boolean isReadResumed() {
            return readsResumed;
        }
    }
}
