package io.meshcontrol.server.control;

import io.meshcontrol.core.crypto.NoiseProtocolException;
import io.meshcontrol.core.crypto.RecordDecoder;
import io.undertow.connector.ByteBufferPool;
import io.undertow.connector.PooledByteBuffer;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.xnio.Buffers;
import org.xnio.channels.StreamSinkChannel;
import org.xnio.conduits.AbstractStreamSourceConduit;
import org.xnio.conduits.ConduitReadableByteChannel;
import org.xnio.conduits.Conduits;
import org.xnio.conduits.StreamSourceConduit;

/**
 * The receiving half of a ts2021 connection: reads Noise records from the next conduit and yields their plaintext.
 *
 * <p>A socket read brings whatever the network delivered, often several records or a record cut in two. Complete
 * records are decrypted at once and their plaintext is kept until the reader takes it; a cut record waits inside the
 * {@link RecordDecoder}. Because plaintext can stay here after the socket has been drained, the selector would never
 * announce it: so whenever plaintext remains after a read, and whenever reads are resumed with plaintext waiting, this
 * conduit asks the next one for a read-ready call ({@code wakeupReads}), as Undertow's own TLS conduit does. Without it
 * a transfer stalls as soon as one read brings more than the reader takes.
 *
 * <p>A protocol violation (a record that is too big, of the wrong type, cut off by the end of the stream, or that does
 * not authenticate) is reported once to {@code onProblem} and then thrown, which makes Undertow close the connection.
 */
final class DecryptingSourceConduit extends AbstractStreamSourceConduit<StreamSourceConduit> {

    private final RecordDecoder decoder;
    private final ByteBufferPool pool;
    private final Consumer<NoiseProtocolException> onProblem;
    /** Decrypted records not yet read, oldest first; each is ready for reading. */
    private final ArrayDeque<ByteBuffer> plaintext = new ArrayDeque<>();
    private boolean endOfStream;
    /** The first protocol violation; every later read throws it again, without reporting it twice. */
    private NoiseProtocolException failure;

    DecryptingSourceConduit(StreamSourceConduit next, RecordDecoder decoder, ByteBufferPool pool,
            Consumer<NoiseProtocolException> onProblem) {
        super(next);
        this.decoder = decoder;
        this.pool = pool;
        this.onProblem = onProblem;
    }

    @Override
    public synchronized int read(ByteBuffer dst) throws IOException {
        if (!dst.hasRemaining()) {
            return 0;
        }
        fillIfEmpty();
        int copied = 0;
        while (dst.hasRemaining() && !plaintext.isEmpty()) {
            ByteBuffer head = plaintext.peekFirst();
            copied += Buffers.copy(dst, head);
            dropIfEmpty(head);
        }
        return finishRead(copied);
    }

    @Override
    public synchronized long read(ByteBuffer[] dsts, int offset, int length) throws IOException {
        if (!Buffers.hasRemaining(dsts, offset, length)) {
            return 0;
        }
        fillIfEmpty();
        int copied = 0;
        while (Buffers.hasRemaining(dsts, offset, length) && !plaintext.isEmpty()) {
            ByteBuffer head = plaintext.peekFirst();
            copied += Buffers.copy(dsts, offset, length, head);
            dropIfEmpty(head);
        }
        return finishRead(copied);
    }

    @Override
    public long transferTo(long position, long count, FileChannel target) throws IOException {
        return target.transferFrom(new ConduitReadableByteChannel(this), position, count);
    }

    @Override
    public long transferTo(long count, ByteBuffer throughBuffer, StreamSinkChannel target) throws IOException {
        return Conduits.transfer(this, count, throughBuffer, target);
    }

    @Override
    public synchronized void resumeReads() {
        if (hasBuffered()) {
            next.wakeupReads();
        } else {
            next.resumeReads();
        }
    }

    @Override
    public void awaitReadable() throws IOException {
        if (!hasBufferedSynchronized()) {
            next.awaitReadable();
        }
    }

    @Override
    public void awaitReadable(long time, TimeUnit timeUnit) throws IOException {
        if (!hasBufferedSynchronized()) {
            next.awaitReadable(time, timeUnit);
        }
    }

    @Override
    public synchronized void terminateReads() throws IOException {
        plaintext.clear();
        next.terminateReads();
    }

    private void dropIfEmpty(ByteBuffer head) {
        if (!head.hasRemaining()) {
            plaintext.pollFirst();
        }
    }

    private int finishRead(int copied) {
        if (copied == 0 && endOfStream && plaintext.isEmpty()) {
            return -1;
        }
        if (hasBuffered() && next.isReadResumed()) {
            next.wakeupReads();
        }
        return copied;
    }

    private boolean hasBuffered() {
        return !plaintext.isEmpty() || endOfStream;
    }

    private synchronized boolean hasBufferedSynchronized() {
        return hasBuffered();
    }

    /**
     * Reads and decrypts until at least one non-empty record is waiting, the socket has nothing more for now, or the
     * stream ended.
     */
    private void fillIfEmpty() throws IOException {
        if (failure != null) {
            throw failure;
        }
        if (!plaintext.isEmpty() || endOfStream) {
            return;
        }
        try (PooledByteBuffer pooled = pool.allocate()) {
            ByteBuffer encrypted = pooled.getBuffer();
            while (plaintext.isEmpty()) {
                encrypted.clear();
                int read = next.read(encrypted);
                if (read < 0) {
                    endOfStream = true;
                    decoder.endOfStream();
                    return;
                }
                if (read == 0) {
                    return;
                }
                encrypted.flip();
                for (ByteBuffer record : decoder.decodeAvailable(encrypted)) {
                    if (record.hasRemaining()) {
                        plaintext.addLast(record);
                    }
                }
            }
        } catch (NoiseProtocolException e) {
            failure = e;
            plaintext.clear();
            onProblem.accept(e);
            throw e;
        }
    }
}
