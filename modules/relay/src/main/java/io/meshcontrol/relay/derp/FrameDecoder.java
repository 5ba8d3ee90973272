package io.meshcontrol.relay.derp;

import java.nio.ByteBuffer;
import java.util.function.IntUnaryOperator;

/**
 * Cuts a byte stream into frames, whatever pieces the bytes arrive in. The length limit is checked from the header,
 * before any payload is buffered, so an oversized length costs the server nothing but the connection.
 */
public final class FrameDecoder {

    private final ByteBuffer header = ByteBuffer.allocate(FrameType.HEADER_LENGTH);
    private final IntUnaryOperator maxLengthOfType;
    private byte type;
    private ByteBuffer payload;

    /** @param maxLengthOfType the largest payload allowed for a frame type, at the moment it is read */
    public FrameDecoder(IntUnaryOperator maxLengthOfType) {
        this.maxLengthOfType = maxLengthOfType;
    }

    /** Receives decoded frames. */
    @FunctionalInterface
    public interface Handler {
        void frame(Frame frame) throws DerpProtocolException;
    }

    /** Takes all of {@code bytes}, handing each completed frame to {@code handler} in order. */
    public void decode(ByteBuffer bytes, Handler handler) throws DerpProtocolException {
        while (bytes.hasRemaining()) {
            if (payload == null) {
                transfer(bytes, header);
                if (header.hasRemaining()) {
                    return;
                }
                header.flip();
                type = header.get();
                long length = Integer.toUnsignedLong(header.getInt());
                header.clear();
                int max = maxLengthOfType.applyAsInt(type);
                if (length > max) {
                    throw new DerpProtocolException("frame type 0x" + Integer.toHexString(type & 0xff) + " of "
                            + length + " bytes exceeds the limit of " + max);
                }
                payload = ByteBuffer.allocate((int) length);
            }
            transfer(bytes, payload);
            if (payload.hasRemaining()) {
                return;
            }
            Frame frame = new Frame(type, payload.array());
            payload = null;
            handler.frame(frame);
        }
    }

    private static void transfer(ByteBuffer from, ByteBuffer to) {
        int n = Math.min(from.remaining(), to.remaining());
        to.put(to.position(), from, from.position(), n);
        to.position(to.position() + n);
        from.position(from.position() + n);
    }
}
