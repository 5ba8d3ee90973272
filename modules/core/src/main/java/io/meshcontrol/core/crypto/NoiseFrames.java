package io.meshcontrol.core.crypto;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * Sizes and byte layouts of ts2021 frames. All integers are big-endian.
 *
 * <pre>
 * initiation  [u16 protocol version][type 1][u16 len = 96][32 ephemeral][48 encrypted static][16 tag]  101 bytes
 * response    [type 2][u16 len = 48][32 ephemeral][16 tag]                                            51 bytes
 * error       [type 3][u16 len][UTF-8 text]
 * record      [type 4][u16 len][ciphertext: plaintext + 16-byte tag]                      at most 4096 bytes
 * </pre>
 */
public final class NoiseFrames {

    /** Type byte plus u16 length: the header of every frame but the initiation. */
    public static final int HEADER_LENGTH = 3;
    /** The initiation also starts with the client's u16 protocol version. */
    public static final int INITIATION_HEADER_LENGTH = 5;
    /** Ephemeral key, encrypted static key with its tag, and the tag over the empty payload. */
    public static final int INITIATION_PAYLOAD_LENGTH = 32 + 48 + 16;
    public static final int INITIATION_LENGTH = INITIATION_HEADER_LENGTH + INITIATION_PAYLOAD_LENGTH;
    /** Ephemeral key and the tag over the empty payload. */
    public static final int RESPONSE_PAYLOAD_LENGTH = 32 + 16;
    public static final int RESPONSE_LENGTH = HEADER_LENGTH + RESPONSE_PAYLOAD_LENGTH;
    /** ChaCha20-Poly1305 tag length. */
    public static final int TAG_LENGTH = 16;
    /** Largest record on the wire, header included; readers refuse anything bigger. */
    public static final int MAX_FRAME_LENGTH = 4096;
    public static final int MAX_CIPHERTEXT_LENGTH = MAX_FRAME_LENGTH - HEADER_LENGTH;
    /** Largest plaintext one record carries; writers split longer writes. */
    public static final int MAX_PLAINTEXT_LENGTH = MAX_CIPHERTEXT_LENGTH - TAG_LENGTH;
    /** The error frame's u16 length field bounds its text. */
    public static final int MAX_ERROR_TEXT_LENGTH = 0xffff;

    private NoiseFrames() {
    }

    /** The payload length announced by the 3-byte header at {@code offset}. */
    public static int declaredLength(byte[] frame, int offset) {
        return ((frame[offset + 1] & 0xff) << 8) | (frame[offset + 2] & 0xff);
    }

    /** The client's protocol version (its capability version) from the first two bytes of an initiation. */
    public static int initiationVersion(byte[] initiation) {
        if (initiation.length < 2) {
            throw new IllegalArgumentException("an initiation starts with a 2-byte version");
        }
        return ((initiation[0] & 0xff) << 8) | (initiation[1] & 0xff);
    }

    /** Wire length of a record carrying {@code plaintextLength} bytes (at most {@link #MAX_PLAINTEXT_LENGTH}). */
    public static int recordLength(int plaintextLength) {
        return HEADER_LENGTH + plaintextLength + TAG_LENGTH;
    }

    /**
     * An error frame carrying {@code text} (UTF-8, cut to 65535 bytes). The server sends it instead of a response to
     * a malformed initiation; use only fixed texts such as {@link NoiseProtocolException#clientHint()}, never anything
     * that echoes what the client sent.
     */
    public static byte[] errorFrame(String text) {
        byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
        int length = Math.min(utf8.length, MAX_ERROR_TEXT_LENGTH);
        ByteBuffer frame = ByteBuffer.allocate(HEADER_LENGTH + length);
        frame.put(MessageType.ERROR.value()).putShort((short) length).put(utf8, 0, length);
        return frame.array();
    }

    static void putHeader(ByteBuffer out, MessageType type, int length) {
        out.put(type.value()).putShort((short) length);
    }

    /** "a response (2)" or "type 9": how a type byte is named in error messages. */
    static String describe(byte type) {
        return MessageType.of(type)
                .map(known -> switch (known) {
                    case INITIATION -> "an initiation (1)";
                    case RESPONSE -> "a response (2)";
                    case ERROR -> "an error (3)";
                    case RECORD -> "a record (4)";
                })
                .orElse("type " + (type & 0xff));
    }
}
