package io.meshcontrol.core.crypto;

import java.nio.ByteBuffer;
import java.util.OptionalInt;

/**
 * The optional first plaintext the server sends after the handshake, before HTTP/2 begins:
 * {@code ff ff ff 'T' 'S'}, a u32 big-endian length, then that many bytes of JSON ({@code tailcfg.EarlyNoise}).
 *
 * <p>The client reads 9 bytes either way: an HTTP/2 frame header is also 9 bytes long, and the server's HTTP/2 stream
 * opens with a SETTINGS frame whose 3-byte length is small, so it never starts with {@code ff ff ff}. That is why the
 * payload needs no negotiation. This class takes and gives JSON as bytes; encoding it is the caller's business.
 */
public final class EarlyPayload {

    /** Magic plus u32 length. */
    public static final int HEADER_LENGTH = 9;
    /** The client refuses longer JSON. */
    public static final int MAX_JSON_LENGTH = 10 << 20;

    private static final byte[] MAGIC = {(byte) 0xff, (byte) 0xff, (byte) 0xff, 'T', 'S'};

    private EarlyPayload() {
    }

    /** The bytes to send, as plaintext, ahead of the HTTP/2 stream. */
    public static byte[] encode(byte[] json) {
        if (json.length > MAX_JSON_LENGTH) {
            throw new IllegalArgumentException("early payload JSON is limited to " + MAX_JSON_LENGTH + " bytes, got "
                    + json.length);
        }
        return ByteBuffer.allocate(HEADER_LENGTH + json.length).put(MAGIC).putInt(json.length).put(json).array();
    }

    /**
     * Reads the first 9 plaintext bytes from the server: the JSON length when they are an early payload header, or
     * empty when they are the start of HTTP/2 (and must be kept as such).
     *
     * @throws NoiseProtocolException {@code EARLY_PAYLOAD_TOO_LARGE} above 10 MiB, which the client refuses
     */
    public static OptionalInt jsonLength(byte[] header) throws NoiseProtocolException {
        if (header.length < HEADER_LENGTH) {
            throw new IllegalArgumentException("need the first " + HEADER_LENGTH + " bytes, got " + header.length);
        }
        for (int i = 0; i < MAGIC.length; i++) {
            if (header[i] != MAGIC[i]) {
                return OptionalInt.empty();
            }
        }
        long length = Integer.toUnsignedLong(ByteBuffer.wrap(header, MAGIC.length, 4).getInt());
        if (length > MAX_JSON_LENGTH) {
            throw new NoiseProtocolException(NoiseProtocolException.Problem.EARLY_PAYLOAD_TOO_LARGE,
                    "early payload of " + length + " bytes exceeds the client's limit of " + MAX_JSON_LENGTH);
        }
        return OptionalInt.of((int) length);
    }
}
