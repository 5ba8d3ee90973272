package io.meshcontrol.relay.stun;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.DatagramChannel;
import java.util.Optional;

/**
 * Answers STUN Binding Requests on one UDP socket, so clients learn their public address and measure their latency
 * to this region ({@code tailscale netcheck}). One virtual thread receives and answers; a datagram that is not a
 * Binding Request is ignored.
 */
public final class StunServer implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(StunServer.class.getName());

    private static final java.time.Duration CLOSE_WAIT = java.time.Duration.ofSeconds(5);

    private final DatagramChannel channel;
    private final Thread thread;

    private StunServer(DatagramChannel channel) {
        this.channel = channel;
        this.thread = Thread.ofVirtual().name("stun").start(this::serve);
    }

    /** Binds {@code address} (port 0 picks a free port, see {@link #address()}) and starts answering. */
    public static StunServer start(InetSocketAddress address) throws IOException {
        DatagramChannel channel = DatagramChannel.open();
        try {
            channel.bind(address);
        } catch (IOException e) {
            channel.close();
            throw e;
        }
        return new StunServer(channel);
    }

    public InetSocketAddress address() {
        try {
            return (InetSocketAddress) channel.getLocalAddress();
        } catch (IOException e) {
            throw new IllegalStateException("STUN socket closed", e);
        }
    }

    private void serve() {
        ByteBuffer buffer = ByteBuffer.allocate(1500);
        while (channel.isOpen()) {
            try {
                buffer.clear();
                InetSocketAddress from = (InetSocketAddress) channel.receive(buffer);
                buffer.flip();
                Optional<byte[]> transaction = StunMessages.bindingRequestTransaction(buffer);
                if (transaction.isPresent()) {
                    channel.send(ByteBuffer.wrap(StunMessages.bindingResponse(transaction.get(), from)), from);
                }
            } catch (ClosedChannelException e) {
                return;
            } catch (IOException e) {
                // One failed send (an unreachable client) must not stop the service.
                LOG.log(Level.DEBUG, "STUN: " + e.getMessage());
            }
        }
    }

    /**
     * Closes the socket and waits (briefly) for the serving thread to leave its receive: a channel closed while a
     * (virtual) thread is blocked in it gives its port back only once that thread has left, and whoever turns STUN
     * off and on again, or moves it, needs the port free when this returns.
     */
    @Override
    public void close() {
        try {
            channel.close();
        } catch (IOException ignored) {
            // closing a datagram socket does not fail in a way worth reporting
        }
        thread.interrupt();
        try {
            thread.join(CLOSE_WAIT);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
