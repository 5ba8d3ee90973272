package io.meshcontrol.core.crypto;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The receiving side of a {@link NoiseTransport}, for callers that get the byte stream in arbitrary chunks (a
 * non-blocking conduit, a socket read). It keeps at most one partial frame (4096 bytes) between calls and checks each
 * header as soon as it is complete, so an oversized or mistyped frame is refused before its body arrives.
 *
 * <p>Any failure is final: the decoder, like Tailscale's {@code Conn}, refuses all later input.
 *
 * <p>Not thread-safe: one reader at a time.
 */
public final class RecordDecoder {

    private final TransportCipher cipher;
    /** The frame being assembled when a chunk ended inside it. */
    private final ByteBuffer partial = ByteBuffer.allocate(NoiseFrames.MAX_FRAME_LENGTH);
    /** Total length of the frame in {@link #partial}, or -1 while its header is incomplete. */
    private int partialFrameLength = -1;
    private NoiseProtocolException failure;

    RecordDecoder(TransportCipher cipher) {
        this.cipher = cipher;
    }

    /**
     * Consumes bytes from {@code encrypted} up to the end of the next record and returns its plaintext, or returns
     * empty after consuming all of {@code encrypted} without completing a record (those bytes stay buffered here).
     * Bytes after the returned record stay in {@code encrypted}.
     */
    public Optional<ByteBuffer> decode(ByteBuffer encrypted) throws NoiseProtocolException {
        checkUsable();
        try {
            return partial.position() == 0 ? decodeInPlace(encrypted) : continuePartial(encrypted);
        } catch (NoiseProtocolException e) {
            failure = e;
            throw e;
        }
    }

    /** Decodes every complete record in {@code encrypted}, consuming all of it; a trailing partial frame is kept. */
    public List<ByteBuffer> decodeAvailable(ByteBuffer encrypted) throws NoiseProtocolException {
        List<ByteBuffer> records = new ArrayList<>();
        while (encrypted.hasRemaining()) {
            Optional<ByteBuffer> record = decode(encrypted);
            if (record.isEmpty()) {
                break;
            }
            records.add(record.get());
        }
        return records;
    }

    /**
     * Decrypts one whole record frame.
     *
     * @throws NoiseProtocolException when {@code record} is not exactly one valid, authentic record
     * @throws IllegalStateException  while a partial frame from {@link #decode(ByteBuffer)} is buffered
     */
    public byte[] decrypt(byte[] record) throws NoiseProtocolException {
        checkUsable();
        if (hasPartialFrame()) {
            throw new IllegalStateException("a partial frame is buffered; keep feeding decode");
        }
        try {
            if (record.length < NoiseFrames.HEADER_LENGTH) {
                throw new NoiseProtocolException(NoiseProtocolException.Problem.TRUNCATED_FRAME,
                        "truncated frame: " + record.length + " bytes, shorter than the 3-byte header");
            }
            int frameLength = checkHeader(record[0], NoiseFrames.declaredLength(record, 0));
            if (record.length < frameLength) {
                throw new NoiseProtocolException(NoiseProtocolException.Problem.TRUNCATED_FRAME,
                        "truncated frame: header announces " + frameLength + " bytes, got " + record.length);
            }
            if (record.length > frameLength) {
                throw new NoiseProtocolException(NoiseProtocolException.Problem.TRAILING_BYTES,
                        (record.length - frameLength) + " bytes after the end of the record");
            }
            ByteBuffer plaintext = open(ByteBuffer.wrap(record));
            return plaintext.array();
        } catch (NoiseProtocolException e) {
            failure = e;
            throw e;
        }
    }

    /** Whether bytes of an incomplete frame are buffered (a stream that ends now was cut mid-frame). */
    public boolean hasPartialFrame() {
        return partial.position() > 0;
    }

    /**
     * Call when the peer closed the stream.
     *
     * @throws NoiseProtocolException {@code TRUNCATED_FRAME} if the stream ended inside a frame
     */
    public void endOfStream() throws NoiseProtocolException {
        if (hasPartialFrame()) {
            throw new NoiseProtocolException(NoiseProtocolException.Problem.TRUNCATED_FRAME,
                    "stream ended inside a frame after " + partial.position() + " bytes");
        }
    }

    /** The common case: the whole frame is already in the caller's buffer, so it is decrypted from there. */
    private Optional<ByteBuffer> decodeInPlace(ByteBuffer encrypted) throws NoiseProtocolException {
        int start = encrypted.position();
        if (encrypted.remaining() >= NoiseFrames.HEADER_LENGTH) {
            int frameLength = checkHeader(encrypted.get(start), encrypted.getShort(start + 1) & 0xffff);
            if (encrypted.remaining() >= frameLength) {
                ByteBuffer frame = encrypted.slice(start, frameLength);
                encrypted.position(start + frameLength);
                return Optional.of(open(frame));
            }
        }
        return continuePartial(encrypted);
    }

    private Optional<ByteBuffer> continuePartial(ByteBuffer encrypted) throws NoiseProtocolException {
        if (partialFrameLength < 0) {
            take(encrypted, NoiseFrames.HEADER_LENGTH - partial.position());
            if (partial.position() < NoiseFrames.HEADER_LENGTH) {
                return Optional.empty();
            }
            partialFrameLength = checkHeader(partial.get(0), partial.getShort(1) & 0xffff);
        }
        take(encrypted, partialFrameLength - partial.position());
        if (partial.position() < partialFrameLength) {
            return Optional.empty();
        }
        partial.flip();
        try {
            return Optional.of(open(partial));
        } finally {
            partial.clear();
            partialFrameLength = -1;
        }
    }

    private void take(ByteBuffer from, int wanted) {
        int count = Math.min(wanted, from.remaining());
        partial.put(partial.position(), from, from.position(), count);
        partial.position(partial.position() + count);
        from.position(from.position() + count);
    }

    /** Validates a record header and returns the frame's total length. */
    private static int checkHeader(byte type, int declaredLength) throws NoiseProtocolException {
        if (type != MessageType.RECORD.value()) {
            NoiseProtocolException.Problem problem = MessageType.of(type).isPresent()
                    ? NoiseProtocolException.Problem.UNEXPECTED_MESSAGE_TYPE
                    : NoiseProtocolException.Problem.UNKNOWN_MESSAGE_TYPE;
            throw new NoiseProtocolException(problem,
                    "expected a record (4), got " + NoiseFrames.describe(type));
        }
        int frameLength = NoiseFrames.HEADER_LENGTH + declaredLength;
        if (frameLength > NoiseFrames.MAX_FRAME_LENGTH) {
            throw new NoiseProtocolException(NoiseProtocolException.Problem.FRAME_TOO_LARGE,
                    "frame of " + frameLength + " bytes exceeds the maximum of " + NoiseFrames.MAX_FRAME_LENGTH);
        }
        if (declaredLength < NoiseFrames.TAG_LENGTH) {
            throw new NoiseProtocolException(NoiseProtocolException.Problem.RECORD_TOO_SHORT,
                    "record of " + declaredLength + " bytes is shorter than the 16-byte tag");
        }
        return frameLength;
    }

    /** Decrypts a whole frame (header included) into a new buffer ready for reading. */
    private ByteBuffer open(ByteBuffer frame) throws NoiseProtocolException {
        ByteBuffer ciphertext = frame.slice(frame.position() + NoiseFrames.HEADER_LENGTH,
                frame.remaining() - NoiseFrames.HEADER_LENGTH);
        ByteBuffer plaintext = ByteBuffer.allocate(ciphertext.remaining() - NoiseFrames.TAG_LENGTH);
        cipher.open(ciphertext, plaintext);
        return plaintext.flip();
    }

    private void checkUsable() throws NoiseProtocolException {
        if (failure != null) {
            throw new NoiseProtocolException(NoiseProtocolException.Problem.CONNECTION_BROKEN,
                    "the record stream failed earlier: " + failure.getMessage(), failure);
        }
    }
}
