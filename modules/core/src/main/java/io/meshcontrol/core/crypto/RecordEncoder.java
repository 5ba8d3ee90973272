package io.meshcontrol.core.crypto;

import java.nio.ByteBuffer;

/**
 * The sending side of a {@link NoiseTransport}: turns plaintext into record frames
 * ({@code [4][u16 length][ciphertext]}), splitting anything longer than {@value NoiseFrames#MAX_PLAINTEXT_LENGTH}
 * bytes. Records must reach the wire in the order they were made, because each one uses the next nonce.
 *
 * <p>Not thread-safe: one writer at a time.
 */
public final class RecordEncoder {

    private final TransportCipher cipher;

    RecordEncoder(TransportCipher cipher) {
        this.cipher = cipher;
    }

    /**
     * One record holding exactly {@code plaintext}. Zero-length records are legal.
     *
     * @throws IllegalArgumentException when the plaintext does not fit one record
     */
    public byte[] encrypt(byte[] plaintext) throws NoiseProtocolException {
        if (plaintext.length > NoiseFrames.MAX_PLAINTEXT_LENGTH) {
            throw new IllegalArgumentException("one record carries at most " + NoiseFrames.MAX_PLAINTEXT_LENGTH
                    + " plaintext bytes, got " + plaintext.length + "; use encode to split");
        }
        ByteBuffer out = ByteBuffer.allocate(NoiseFrames.recordLength(plaintext.length));
        encodeRecord(ByteBuffer.wrap(plaintext), out);
        return out.array();
    }

    /**
     * All of {@code plaintext} as consecutive records, each full but the last. Empty input gives no records, as a
     * zero-length write does in Tailscale's {@code Conn}.
     */
    public byte[] encode(byte[] plaintext) throws NoiseProtocolException {
        ByteBuffer out = ByteBuffer.allocate(encodedLength(plaintext.length));
        ByteBuffer in = ByteBuffer.wrap(plaintext);
        while (in.hasRemaining()) {
            encodeRecord(in, out);
        }
        return out.array();
    }

    /**
     * Encrypts the next record from {@code plaintext} into {@code out}: as many bytes as one record and {@code out}'s
     * free space allow. Consumes them from {@code plaintext} and returns how many it took. With an empty
     * {@code plaintext} it writes an empty record. A conduit calls this with its pending output buffer.
     *
     * @throws IllegalArgumentException when {@code out} has fewer than 20 bytes free (header, tag and one byte), unless
     *                                  {@code plaintext} is empty and 19 bytes suffice
     */
    public int encodeRecord(ByteBuffer plaintext, ByteBuffer out) throws NoiseProtocolException {
        int room = out.remaining() - NoiseFrames.recordLength(0);
        if (room < 0 || (room == 0 && plaintext.hasRemaining())) {
            throw new IllegalArgumentException("no room for a record: " + out.remaining() + " bytes free");
        }
        int length = Math.min(Math.min(plaintext.remaining(), NoiseFrames.MAX_PLAINTEXT_LENGTH), room);
        NoiseFrames.putHeader(out, MessageType.RECORD, length + NoiseFrames.TAG_LENGTH);
        ByteBuffer piece = plaintext.slice(plaintext.position(), length);
        cipher.seal(piece, out);
        plaintext.position(plaintext.position() + length);
        return length;
    }

    /** Wire length of {@code plaintextLength} bytes after {@link #encode(byte[])}. */
    public static int encodedLength(int plaintextLength) {
        int fullRecords = plaintextLength / NoiseFrames.MAX_PLAINTEXT_LENGTH;
        int rest = plaintextLength % NoiseFrames.MAX_PLAINTEXT_LENGTH;
        return fullRecords * NoiseFrames.MAX_FRAME_LENGTH + (rest == 0 ? 0 : NoiseFrames.recordLength(rest));
    }
}
