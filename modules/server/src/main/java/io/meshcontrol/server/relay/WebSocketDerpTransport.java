package io.meshcontrol.server.relay;

import io.meshcontrol.relay.derp.DerpSession;
import io.meshcontrol.relay.derp.DerpTransport;
import io.undertow.websockets.core.AbstractReceiveListener;
import io.undertow.websockets.core.BufferedBinaryMessage;
import io.undertow.websockets.core.WebSocketCallback;
import io.undertow.websockets.core.WebSocketChannel;
import io.undertow.websockets.core.WebSockets;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicBoolean;
import org.xnio.IoUtils;
import org.xnio.Pooled;

/**
 * A DERP session over WebSocket (subprotocol {@code derp}), as browser clients and Go clients built for it connect.
 * Binary messages carry the DERP byte stream in arbitrary pieces, so each received message is fed to the session as
 * more bytes; queued frames go out as one binary message per batch, the next batch only after the previous one was
 * sent, so a client that stops reading stops taking frames (and is dropped by the relay's stall check).
 */
final class WebSocketDerpTransport extends AbstractReceiveListener implements DerpTransport {

    /** A single message larger than this is no DERP traffic (a frame is at most 64 KiB plus keys). */
    private static final long MAX_MESSAGE = 1 << 20;
    private static final int BATCH = 64 << 10;

    private final WebSocketChannel channel;
    private final AtomicBoolean sending = new AtomicBoolean();
    private DerpSession session;

    WebSocketDerpTransport(WebSocketChannel channel) {
        this.channel = channel;
    }

    void start(DerpSession derpSession) {
        this.session = derpSession;
        channel.addCloseTask(c -> derpSession.closed());
        channel.getReceiveSetter().set(this);
        derpSession.start();
        channel.resumeReceives();
    }

    @Override
    protected long getMaxBinaryBufferSize() {
        return MAX_MESSAGE;
    }

    @Override
    protected void onFullBinaryMessage(WebSocketChannel ws, BufferedBinaryMessage message) {
        try (Pooled<ByteBuffer[]> data = message.getData()) {
            for (ByteBuffer buffer : data.getResource()) {
                session.received(buffer);
            }
        }
    }

    @Override
    public void writeReady() {
        // One message in flight at a time; whoever finds nothing to send re-checks after releasing the flag, so a
        // frame queued in between is not left behind.
        while (sending.compareAndSet(false, true)) {
            ByteBuffer batch = nextBatch();
            if (batch != null) {
                WebSockets.sendBinary(batch, channel, new WebSocketCallback<Void>() {
                    @Override
                    public void complete(WebSocketChannel ws, Void context) {
                        sending.set(false);
                        writeReady();
                    }

                    @Override
                    public void onError(WebSocketChannel ws, Void context, Throwable throwable) {
                        close();
                    }
                });
                return;
            }
            sending.set(false);
            if (!session.hasQueuedFrames()) {
                return;
            }
        }
    }

    private ByteBuffer nextBatch() {
        byte[] first = session.nextFrame();
        if (first == null) {
            return null;
        }
        ByteBuffer batch = ByteBuffer.allocate(Math.max(BATCH, first.length));
        batch.put(first);
        byte[] next;
        while (batch.remaining() >= 2048 && (next = session.nextFrame()) != null) {
            if (next.length > batch.remaining()) {
                ByteBuffer bigger = ByteBuffer.allocate(batch.position() + next.length);
                bigger.put(batch.flip()).put(next);
                batch = bigger;
                break;
            }
            batch.put(next);
        }
        return batch.flip();
    }

    @Override
    public void close() {
        IoUtils.safeClose(channel);
    }

    @Override
    public SocketAddress remoteAddress() {
        return channel.getSourceAddress();
    }

    @Override
    protected void onCloseMessage(io.undertow.websockets.core.CloseMessage cm, WebSocketChannel ws) {
        close();
    }

    /** For the receive listener's error path: an I/O error ends the session like a close. */
    @Override
    protected void onError(WebSocketChannel ws, Throwable error) {
        close();
    }
}
