package io.meshcontrol.server.listener;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import org.xnio.StreamConnection;
import org.xnio.channels.StreamSinkChannel;
import org.xnio.channels.StreamSourceChannel;
import org.xnio.conduits.AbstractStreamSinkConduit;
import org.xnio.conduits.AbstractStreamSourceConduit;
import org.xnio.conduits.StreamSinkConduit;
import org.xnio.conduits.StreamSourceConduit;

/**
 * When a connection last moved a byte either way: conduits at the bottom of the connection note every read and write
 * that moved data. Undertow's own {@code IdleTimeoutConduit} cannot serve here: it times only while reads or writes are
 * resumed, so a worker thread blocked draining a body that never comes (after a 401, say) held its connection.
 */
final class Activity {

    private volatile long lastNanos = System.nanoTime();

    /** Puts the noting conduits under everything else on {@code connection}; call before Undertow sees it. */
    static Activity watch(StreamConnection connection) {
        Activity activity = new Activity();
        connection.getSourceChannel().setConduit(activity.new Source(connection.getSourceChannel().getConduit()));
        connection.getSinkChannel().setConduit(activity.new Sink(connection.getSinkChannel().getConduit()));
        return activity;
    }

    /** Nanoseconds ({@link System#nanoTime()}) since the last byte moved. */
    long idleNanos(long now) {
        return now - lastNanos;
    }

    private <T extends Number> T noted(T moved) {
        if (moved.longValue() > 0) {
            lastNanos = System.nanoTime();
        }
        return moved;
    }

    private final class Source extends AbstractStreamSourceConduit<StreamSourceConduit> {
        Source(StreamSourceConduit next) {
            super(next);
        }

        @Override
        public int read(ByteBuffer dst) throws IOException {
            return noted(next.read(dst));
        }

        @Override
        public long read(ByteBuffer[] dsts, int offs, int len) throws IOException {
            return noted(next.read(dsts, offs, len));
        }

        @Override
        public long transferTo(long position, long count, FileChannel target) throws IOException {
            return noted(next.transferTo(position, count, target));
        }

        @Override
        public long transferTo(long count, ByteBuffer throughBuffer, StreamSinkChannel target) throws IOException {
            return noted(next.transferTo(count, throughBuffer, target));
        }
    }

    private final class Sink extends AbstractStreamSinkConduit<StreamSinkConduit> {
        Sink(StreamSinkConduit next) {
            super(next);
        }

        @Override
        public int write(ByteBuffer src) throws IOException {
            return noted(next.write(src));
        }

        @Override
        public long write(ByteBuffer[] srcs, int offs, int len) throws IOException {
            return noted(next.write(srcs, offs, len));
        }

        @Override
        public int writeFinal(ByteBuffer src) throws IOException {
            return noted(next.writeFinal(src));
        }

        @Override
        public long writeFinal(ByteBuffer[] srcs, int offs, int len) throws IOException {
            return noted(next.writeFinal(srcs, offs, len));
        }

        @Override
        public long transferFrom(FileChannel src, long position, long count) throws IOException {
            return noted(next.transferFrom(src, position, count));
        }

        @Override
        public long transferFrom(StreamSourceChannel source, long count, ByteBuffer throughBuffer) throws IOException {
            return noted(next.transferFrom(source, count, throughBuffer));
        }
    }
}
