package io.meshcontrol.server.control;

import io.meshcontrol.core.crypto.NoiseFrames;
import io.meshcontrol.core.crypto.RecordEncoder;
import io.undertow.connector.ByteBufferPool;
import io.undertow.connector.PooledByteBuffer;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import org.xnio.Buffers;
import org.xnio.channels.StreamSourceChannel;
import org.xnio.conduits.AbstractStreamSinkConduit;
import org.xnio.conduits.ConduitWritableByteChannel;
import org.xnio.conduits.Conduits;
import org.xnio.conduits.StreamSinkConduit;

/**
 * The sending half of a ts2021 connection: everything written here leaves as Noise records
 * ({@code [4][u16 length][ciphertext]}, at most 4096 bytes each).
 *
 * <p>Bytes are sealed as soon as they are accepted: one {@code write} call becomes as few records as its bytes need
 * (a gathering write of several HTTP/2 frames shares records, and every record but a call's last is full), and the
 * records wait in one pooled buffer (16 KiB: four full records) until the next conduit takes them. So the nonce order is the write order, and nothing stays as plaintext between calls.
 * {@link #flush()} pushes the sealed bytes out; like any XNIO conduit, only a successful flush promises delivery.
 *
 * <p>Every method that could reach the next conduit is overridden: the defaults of {@link AbstractStreamSinkConduit}
 * would pass plaintext straight to the socket. Shutdown waits for the sealed bytes: {@link #terminateWrites()} only
 * marks it, and the flush that drains the last record also terminates the next conduit.
 *
 * <p>Undertow's HTTP/2 channel writes under its own lock, from the I/O thread or a worker; the methods are
 * synchronized anyway so that a stray caller cannot interleave records.
 */
final class EncryptingSinkConduit extends AbstractStreamSinkConduit<StreamSinkConduit> {

    private final RecordEncoder encoder;
    private final ByteBufferPool pool;
    /** Sealed bytes the next conduit has not taken yet, in write mode; null while there are none (saves memory). */
    private PooledByteBuffer sealed;
    /** Plaintext gathered from several source buffers into one record; made on first need. */
    private ByteBuffer gather;
    private boolean terminateRequested;
    private boolean terminated;

    /**
     * @param preamble bytes sent ahead of the first record, as they are: the 51-byte handshake response, which is not
     *                 itself a record
     */
    EncryptingSinkConduit(StreamSinkConduit next, RecordEncoder encoder, ByteBufferPool pool, byte[] preamble) {
        super(next);
        this.encoder = encoder;
        this.pool = pool;
        if (preamble.length > 0) {
            sealedBuffer().put(preamble);
        }
    }

    @Override
    public synchronized int write(ByteBuffer src) throws IOException {
        return (int) write(new ByteBuffer[] {src}, 0, 1);
    }

    @Override
    public synchronized long write(ByteBuffer[] srcs, int offset, int length) throws IOException {
        if (terminateRequested) {
            throw new ClosedChannelException();
        }
        long taken = 0;
        while (Buffers.hasRemaining(srcs, offset, length)) {
            int wanted = (int) Math.min(Buffers.remaining(srcs, offset, length), NoiseFrames.MAX_PLAINTEXT_LENGTH);
            // Records stay full while there is plenty to send: rather than cut one short to fit the room left,
            // push out what is sealed, and stop taking bytes if the socket cannot make room.
            if (plaintextRoom() < wanted) {
                drain();
                if (plaintextRoom() < wanted) {
                    break;
                }
            }
            taken += sealRecord(srcs, offset, length, wanted);
        }
        return taken;
    }

    @Override
    public int writeFinal(ByteBuffer src) throws IOException {
        return Conduits.writeFinalBasic(this, src);
    }

    @Override
    public long writeFinal(ByteBuffer[] srcs, int offset, int length) throws IOException {
        return Conduits.writeFinalBasic(this, srcs, offset, length);
    }

    @Override
    public long transferFrom(FileChannel src, long position, long count) throws IOException {
        return src.transferTo(position, count, new ConduitWritableByteChannel(this));
    }

    @Override
    public long transferFrom(StreamSourceChannel source, long count, ByteBuffer throughBuffer) throws IOException {
        return Conduits.transfer(source, count, throughBuffer, this);
    }

    @Override
    public synchronized boolean flush() throws IOException {
        if (!drain()) {
            return false;
        }
        if (terminateRequested && !terminated) {
            terminated = true;
            next.terminateWrites();
        }
        return next.flush();
    }

    @Override
    public synchronized void terminateWrites() throws IOException {
        if (terminateRequested) {
            return;
        }
        terminateRequested = true;
        if (sealed == null) {
            terminated = true;
            next.terminateWrites();
        }
    }

    @Override
    public synchronized boolean isWriteShutdown() {
        return terminateRequested || next.isWriteShutdown();
    }

    @Override
    public synchronized void truncateWrites() throws IOException {
        release();
        terminateRequested = true;
        terminated = true;
        next.truncateWrites();
    }

    /** How many plaintext bytes the next record may carry, given the room left in the sealed buffer. */
    private int plaintextRoom() {
        int free = sealed == null ? pool.getBufferSize() : sealed.getBuffer().remaining();
        return Math.min(free - NoiseFrames.recordLength(0), NoiseFrames.MAX_PLAINTEXT_LENGTH);
    }

    /** Seals up to {@code room} bytes from the sources as one record; returns how many it took. */
    private int sealRecord(ByteBuffer[] srcs, int offset, int length, int room) throws IOException {
        ByteBuffer out = sealedBuffer();
        int first = offset;
        while (!srcs[first].hasRemaining()) {
            first++;
        }
        ByteBuffer src = srcs[first];
        int end = offset + length;
        if (src.remaining() >= room || !Buffers.hasRemaining(srcs, first + 1, end - first - 1)) {
            // The whole record comes from one buffer: encrypt straight from it.
            int count = Math.min(src.remaining(), room);
            encoder.encodeRecord(src.slice(src.position(), count), out);
            src.position(src.position() + count);
            return count;
        }
        // The record spans buffers (an HTTP/2 frame header and its payload, say): gather them first.
        if (gather == null) {
            gather = ByteBuffer.allocate(NoiseFrames.MAX_PLAINTEXT_LENGTH);
        }
        gather.clear();
        Buffers.copy(room, gather, srcs, first, end - first);
        gather.flip();
        return encoder.encodeRecord(gather, out);
    }

    private ByteBuffer sealedBuffer() {
        if (sealed == null) {
            sealed = pool.allocate();
        }
        return sealed.getBuffer();
    }

    /** Hands sealed bytes to the next conduit; true when none are left. */
    private boolean drain() throws IOException {
        if (sealed == null) {
            return true;
        }
        ByteBuffer buffer = sealed.getBuffer();
        buffer.flip();
        try {
            while (buffer.hasRemaining() && next.write(buffer) > 0) {
                // keep going while the socket takes bytes
            }
        } finally {
            buffer.compact();
        }
        if (buffer.position() > 0) {
            return false;
        }
        release();
        return true;
    }

    private void release() {
        if (sealed != null) {
            sealed.close();
            sealed = null;
        }
    }
}
