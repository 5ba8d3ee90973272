package io.meshcontrol.server.relay;

import io.meshcontrol.relay.derp.DerpSession;
import io.meshcontrol.relay.derp.DerpTransport;
import java.io.IOException;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicBoolean;
import org.xnio.IoUtils;
import org.xnio.StreamConnection;
import org.xnio.conduits.ConduitStreamSinkChannel;
import org.xnio.conduits.ConduitStreamSourceChannel;

/**
 * A DERP session on the raw connection Undertow hands over after {@code 101 Switching Protocols}. Everything runs on
 * the connection's XNIO I/O thread without blocking: reads feed the session as they arrive, and queued frames are
 * written while the socket takes them, then the sink waits for writability.
 */
final class XnioDerpTransport implements DerpTransport {

    /** Bytes gathered per socket write: many small packets (WireGuard keep-alives, disco) go out in one call. */
    private static final int WRITE_BATCH = 64 << 10;

    private final StreamConnection connection;
    private final ConduitStreamSourceChannel source;
    private final ConduitStreamSinkChannel sink;
    private final AtomicBoolean flushScheduled = new AtomicBoolean();
    private final ByteBuffer readBuffer = ByteBuffer.allocate(16 << 10);
    private DerpSession session;
    /** Bytes taken from the session but not yet accepted by the socket; I/O thread only. */
    private ByteBuffer pending;

    XnioDerpTransport(StreamConnection connection) {
        this.connection = connection;
        this.source = connection.getSourceChannel();
        this.sink = connection.getSinkChannel();
    }

    /** Runs on the connection's I/O thread. */
    void start(DerpSession derpSession) {
        this.session = derpSession;
        connection.setCloseListener(c -> derpSession.closed());
        source.setReadListener(c -> readAvailable());
        sink.setWriteListener(c -> flush());
        derpSession.start();
        source.resumeReads();
    }

    private void readAvailable() {
        try {
            while (true) {
                readBuffer.clear();
                int n = source.read(readBuffer);
                if (n == 0) {
                    return;
                }
                if (n < 0) {
                    close();
                    return;
                }
                readBuffer.flip();
                session.received(readBuffer);
                if (!connection.isOpen()) {
                    return;
                }
            }
        } catch (IOException e) {
            close();
        }
    }

    @Override
    public void writeReady() {
        if (flushScheduled.compareAndSet(false, true)) {
            connection.getIoThread().execute(() -> {
                flushScheduled.set(false);
                flush();
            });
        }
    }

    private void flush() {
        if (!connection.isOpen()) {
            return;
        }
        try {
            while (true) {
                if (pending == null || !pending.hasRemaining()) {
                    pending = nextBatch();
                    if (pending == null) {
                        break;
                    }
                }
                sink.write(pending);
                if (pending.hasRemaining()) {
                    sink.resumeWrites();
                    return;
                }
            }
            if (sink.flush()) {
                sink.suspendWrites();
            } else {
                sink.resumeWrites();
            }
        } catch (IOException e) {
            close();
        }
    }

    /** Queued frames packed into one buffer, up to {@link #WRITE_BATCH} bytes (one larger frame goes alone). */
    private ByteBuffer nextBatch() {
        byte[] first = session.nextFrame();
        if (first == null) {
            return null;
        }
        if (first.length >= WRITE_BATCH / 2) {
            return ByteBuffer.wrap(first);
        }
        ByteBuffer batch = ByteBuffer.allocate(WRITE_BATCH);
        batch.put(first);
        byte[] next;
        while (batch.remaining() >= 2048 && (next = session.nextFrame()) != null) {
            if (next.length > batch.remaining()) {
                ByteBuffer bigger = ByteBuffer.allocate(batch.position() + next.length);
                batch.flip();
                bigger.put(batch).put(next);
                batch = bigger;
                break;
            }
            batch.put(next);
        }
        return batch.flip();
    }

    @Override
    public void close() {
        IoUtils.safeClose(connection);
    }

    @Override
    public SocketAddress remoteAddress() {
        return connection.getPeerAddress();
    }
}
