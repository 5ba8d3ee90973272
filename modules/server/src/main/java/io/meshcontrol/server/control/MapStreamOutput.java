package io.meshcontrol.server.control;

import io.meshcontrol.core.netmap.frames.MapFrame;
import io.undertow.server.HttpServerExchange;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import org.xnio.channels.StreamSinkChannel;

/**
 * The body of a map response, written a whole message at a time (a full map's frame in the pieces it is made of,
 * {@link MapFrame.Output}, so that its kept blocks are not copied into one array first). Each {@link #write} hands
 * its bytes to the connection's I/O thread in one task; there they are copied into HTTP/2 DATA frames and flushed for
 * as long as the connection takes them. Only when it stops taking them (the socket is full, or the client's
 * flow-control window is) does the writing thread wait until the connection has flushed, and hand over the rest.
 *
 * <p>Why not Undertow's blocking output stream: it gives the I/O thread one frame (a 16 KiB buffer) at a time and waits
 * for each, so a full map of 1.7 MB (10,000 peers) cost a hundred hand-overs between the stream's virtual thread and
 * the I/O thread, each a task, a selector wake-up and two thread switches. Tasks go through {@link IoThreadTasks},
 * which hands the I/O thread a batch of them (from all the streams it serves) at once.
 *
 * <p>{@link #write} returns once its bytes are flushed to the connection, so {@link #flush} has nothing to do;
 * {@link #close} ends the response, on the I/O thread as well. The response starts at the first write, so that what
 * fails before it can still be answered with an error. One writing thread at a time, as for any output stream.
 */
final class MapStreamOutput extends OutputStream implements MapFrame.Output {

    private final HttpServerExchange exchange;
    private final Executor ioThread;
    private StreamSinkChannel channel;
    private boolean closed;

    /** @param ioThread runs tasks on the exchange's I/O thread ({@link ControlConnection#ioTasks()}) */
    MapStreamOutput(HttpServerExchange exchange, Executor ioThread) {
        this.exchange = exchange;
        this.ioThread = ioThread;
    }

    @Override
    public void write(int b) throws IOException {
        write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] bytes, int offset, int length) throws IOException {
        Objects.checkFromIndexSize(offset, length, bytes.length);
        write(new ByteBuffer[] {ByteBuffer.wrap(bytes, offset, length)});
    }

    /** A frame's pieces (a full map's kept blocks among them) in one hand-over, as one write of their bytes. */
    @Override
    public void write(List<byte[]> pieces) throws IOException {
        ByteBuffer[] buffers = new ByteBuffer[pieces.size()];
        for (int i = 0; i < buffers.length; i++) {
            buffers[i] = ByteBuffer.wrap(pieces.get(i)); // read-only use: the kept blocks' arrays are shared
        }
        write(buffers);
    }

    private void write(ByteBuffer[] rest) throws IOException {
        if (closed) {
            throw new IOException("the map response has ended");
        }
        StreamSinkChannel sink = channel();
        while (!onIoThread(() -> writeWhileTaken(sink, rest))) {
            sink.awaitWritable();
        }
    }

    @Override
    public void flush() {
        // Every write is flushed before it returns.
    }

    /** Ends the response (the stream's last frame), waiting until the connection has taken it. */
    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        StreamSinkChannel sink = channel();
        boolean flushed = onIoThread(() -> {
            sink.shutdownWrites();
            return sink.flush();
        });
        while (!flushed) {
            sink.awaitWritable();
            flushed = onIoThread(sink::flush);
        }
    }

    private StreamSinkChannel channel() throws IOException {
        if (channel == null) {
            channel = exchange.getResponseChannel();
            if (channel == null) {
                throw new IOException("the response is being written elsewhere");
            }
        }
        return channel;
    }

    /**
     * On the I/O thread: hands the connection bytes while it takes them, then flushes them; true when every byte is
     * written and flushed, false when the connection must flush before it takes more.
     */
    private static boolean writeWhileTaken(StreamSinkChannel sink, ByteBuffer[] rest) throws IOException {
        while (hasRemaining(rest)) {
            if (sink.write(rest) == 0) {
                return false;
            }
        }
        return sink.flush();
    }

    private static boolean hasRemaining(ByteBuffer[] buffers) {
        for (ByteBuffer buffer : buffers) {
            if (buffer.hasRemaining()) {
                return true;
            }
        }
        return false;
    }

    /** Runs {@code step} on the connection's I/O thread and waits for its answer. */
    private boolean onIoThread(IoStep step) throws IOException {
        CompletableFuture<Boolean> answer = new CompletableFuture<>();
        try {
            ioThread.execute(() -> {
                try {
                    answer.complete(step.run());
                } catch (IOException | RuntimeException e) {
                    answer.completeExceptionally(e);
                }
            });
        } catch (RejectedExecutionException e) {
            throw new IOException("the connection's I/O thread has stopped", e);
        }
        try {
            return answer.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while the map was written");
        } catch (ExecutionException e) {
            if (e.getCause() instanceof IOException io) {
                throw io;
            }
            throw (RuntimeException) e.getCause(); // the step throws nothing else
        }
    }

    @FunctionalInterface
    private interface IoStep {
        boolean run() throws IOException;
    }
}
