package io.meshcontrol.core.crypto;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Record framing: splitting, chunked decoding and every way a frame can be refused. */
class RecordCodecTest {

    private static final byte[] KEY = new byte[32];

    private final RecordEncoder encoder = new RecordEncoder(new TransportCipher(KEY));
    private final RecordDecoder decoder = new RecordDecoder(new TransportCipher(KEY));

    @Test
    void sizesFollowTailscalesLimits() {
        assertEquals(4096, NoiseFrames.MAX_FRAME_LENGTH);
        assertEquals(4093, NoiseFrames.MAX_CIPHERTEXT_LENGTH);
        assertEquals(4077, NoiseFrames.MAX_PLAINTEXT_LENGTH);
        assertEquals(101, NoiseFrames.INITIATION_LENGTH);
        assertEquals(51, NoiseFrames.RESPONSE_LENGTH);
        assertEquals(4, MessageType.RECORD.value());
        assertEquals(Optional.of(MessageType.ERROR), MessageType.of((byte) 3));
        assertEquals(Optional.empty(), MessageType.of((byte) 0));
    }

    @Test
    void recordFrameIsTypeLengthCiphertext() throws Exception {
        byte[] record = encoder.encrypt(new byte[] {1, 2, 3});
        assertEquals(3 + 3 + 16, record.length);
        assertArrayEquals(new byte[] {4, 0, 19}, Arrays.copyOf(record, 3));
        assertArrayEquals(new byte[] {1, 2, 3}, decoder.decrypt(record));
    }

    @Test
    void zeroLengthRecordIsLegal() throws Exception {
        byte[] record = encoder.encrypt(new byte[0]);
        assertArrayEquals(new byte[] {4, 0, 16}, Arrays.copyOf(record, 3));
        assertArrayEquals(new byte[0], decoder.decrypt(record));
    }

    @Test
    void largePlaintextIsSplitIntoFullRecords() throws Exception {
        byte[] plaintext = pattern(10_000);
        byte[] encoded = encoder.encode(plaintext);
        assertEquals(4096 + 4096 + (3 + 1846 + 16), encoded.length);
        assertEquals(encoded.length, RecordEncoder.encodedLength(plaintext.length));

        List<ByteBuffer> records = decoder.decodeAvailable(ByteBuffer.wrap(encoded));
        assertEquals(List.of(4077, 4077, 1846), records.stream().map(ByteBuffer::remaining).toList());
        assertArrayEquals(plaintext, concat(records));
        assertEquals(0, encoder.encode(new byte[0]).length, "an empty write sends nothing");
    }

    @Test
    void oneRecordRefusesMoreThanItCanCarry() {
        assertThrows(IllegalArgumentException.class, () -> encoder.encrypt(new byte[4078]));
    }

    @Test
    void encodeRecordFillsTheCallersBuffer() throws Exception {
        ByteBuffer plaintext = ByteBuffer.wrap(pattern(100));
        ByteBuffer out = ByteBuffer.allocate(50);
        assertEquals(31, encoder.encodeRecord(plaintext, out));
        assertEquals(69, plaintext.remaining());
        assertFalse(out.hasRemaining());
        assertThrows(IllegalArgumentException.class, () -> encoder.encodeRecord(plaintext, ByteBuffer.allocate(19)));
        out.flip();
        assertArrayEquals(Arrays.copyOf(pattern(100), 31), concat(decoder.decodeAvailable(out)));
    }

    @Test
    void decoderReassemblesRecordsFromArbitraryChunks() throws Exception {
        byte[] plaintext = pattern(50_000);
        ByteArrayOutputStream stream = new ByteArrayOutputStream();
        stream.write(encoder.encode(plaintext));
        for (int i = 0; i < 300; i++) {
            stream.write(encoder.encrypt(new byte[] {(byte) i}));
        }
        byte[] wire = stream.toByteArray();

        Random random = new Random(42);
        ByteArrayOutputStream received = new ByteArrayOutputStream();
        int records = 0;
        for (int offset = 0; offset < wire.length; ) {
            int chunk = Math.min(wire.length - offset, random.nextInt(random.nextBoolean() ? 5 : 9000) + 1);
            ByteBuffer in = ByteBuffer.wrap(wire, offset, chunk);
            for (ByteBuffer record : decoder.decodeAvailable(in)) {
                received.write(record.array(), record.arrayOffset() + record.position(), record.remaining());
                records++;
            }
            assertFalse(in.hasRemaining(), "decodeAvailable consumes the whole chunk");
            offset += chunk;
        }
        decoder.endOfStream();
        assertEquals(13 + 300, records);
        byte[] expected = Arrays.copyOf(plaintext, plaintext.length + 300);
        for (int i = 0; i < 300; i++) {
            expected[plaintext.length + i] = (byte) i;
        }
        assertArrayEquals(expected, received.toByteArray());
    }

    @Test
    void decodeStopsAtTheEndOfEachRecord() throws Exception {
        byte[] two = concat(encoder.encrypt(new byte[] {1}), encoder.encrypt(new byte[] {2, 2}));
        ByteBuffer in = ByteBuffer.wrap(two, 0, two.length - 1);
        assertEquals(1, decoder.decode(in).orElseThrow().remaining());
        assertEquals(20, in.remaining(), "the second record stays in the caller's buffer");
        assertEquals(Optional.empty(), decoder.decode(in));
        assertTrue(decoder.hasPartialFrame());
        NoiseProtocolException cut = assertThrows(NoiseProtocolException.class, decoder::endOfStream);
        assertEquals(NoiseProtocolException.Problem.TRUNCATED_FRAME, cut.problem());
        assertEquals(2, decoder.decode(ByteBuffer.wrap(two, two.length - 1, 1)).orElseThrow().remaining());
        assertFalse(decoder.hasPartialFrame());
    }

    @Test
    void oversizedFrameIsRefusedFromItsHeaderAlone() {
        // 3 + 4094 = 4097 bytes: one more than the maximum. Only the header has arrived.
        ByteBuffer header = ByteBuffer.wrap(new byte[] {4, 0x0f, (byte) 0xfe});
        NoiseProtocolException e = assertThrows(NoiseProtocolException.class, () -> decoder.decode(header));
        assertEquals(NoiseProtocolException.Problem.FRAME_TOO_LARGE, e.problem());
        assertEquals("frame of 4097 bytes exceeds the maximum of 4096", e.getMessage());
    }

    @Test
    void largestFrameIsAccepted() throws Exception {
        byte[] record = encoder.encrypt(pattern(4077));
        assertEquals(4096, record.length);
        assertArrayEquals(pattern(4077), decoder.decrypt(record));
    }

    @Test
    void unknownTypeIsRefused() {
        NoiseProtocolException e = assertThrows(NoiseProtocolException.class,
                () -> decoder.decode(ByteBuffer.wrap(new byte[] {9, 0, 20})));
        assertEquals(NoiseProtocolException.Problem.UNKNOWN_MESSAGE_TYPE, e.problem());
        assertEquals("expected a record (4), got type 9", e.getMessage());
    }

    @Test
    void handshakeTypeInTheRecordStreamIsRefused() {
        NoiseProtocolException e = assertThrows(NoiseProtocolException.class,
                () -> decoder.decrypt(new byte[] {2, 0, 16, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}));
        assertEquals(NoiseProtocolException.Problem.UNEXPECTED_MESSAGE_TYPE, e.problem());
        assertEquals("expected a record (4), got a response (2)", e.getMessage());
    }

    @Test
    void recordShorterThanATagIsRefused() {
        NoiseProtocolException e = assertThrows(NoiseProtocolException.class,
                () -> decoder.decode(ByteBuffer.wrap(new byte[] {4, 0, 15})));
        assertEquals(NoiseProtocolException.Problem.RECORD_TOO_SHORT, e.problem());
    }

    @Test
    void truncatedRecordIsRefused() throws Exception {
        byte[] record = encoder.encrypt(new byte[] {1, 2, 3});
        NoiseProtocolException body = assertThrows(NoiseProtocolException.class,
                () -> decoder.decrypt(Arrays.copyOf(record, record.length - 1)));
        assertEquals(NoiseProtocolException.Problem.TRUNCATED_FRAME, body.problem());
        assertEquals("truncated frame: header announces 22 bytes, got 21", body.getMessage());

        RecordDecoder fresh = new RecordDecoder(new TransportCipher(KEY));
        NoiseProtocolException header = assertThrows(NoiseProtocolException.class,
                () -> fresh.decrypt(new byte[] {4, 0}));
        assertEquals(NoiseProtocolException.Problem.TRUNCATED_FRAME, header.problem());
    }

    @Test
    void bytesAfterTheRecordAreRefused() throws Exception {
        byte[] record = encoder.encrypt(new byte[] {1});
        NoiseProtocolException e = assertThrows(NoiseProtocolException.class,
                () -> decoder.decrypt(Arrays.copyOf(record, record.length + 2)));
        assertEquals(NoiseProtocolException.Problem.TRAILING_BYTES, e.problem());
    }

    @Test
    void decoderRefusesEverythingAfterAFailure() throws Exception {
        assertThrows(NoiseProtocolException.class, () -> decoder.decode(ByteBuffer.wrap(new byte[] {9, 0, 20})));
        byte[] valid = encoder.encrypt(new byte[] {1});
        NoiseProtocolException e = assertThrows(NoiseProtocolException.class,
                () -> decoder.decode(ByteBuffer.wrap(valid)));
        assertEquals(NoiseProtocolException.Problem.CONNECTION_BROKEN, e.problem());
    }

    @Test
    void decodesFromDirectBuffersAsConduitsHaveThem() throws Exception {
        byte[] wire = encoder.encode(pattern(9000));
        ByteBuffer direct = ByteBuffer.allocateDirect(wire.length).put(wire).flip();
        assertArrayEquals(pattern(9000), concat(decoder.decodeAvailable(direct)));
    }

    private static byte[] pattern(int length) {
        byte[] bytes = new byte[length];
        for (int i = 0; i < length; i++) {
            bytes[i] = (byte) (i * 31 + (i >> 8));
        }
        return bytes;
    }

    private static byte[] concat(List<ByteBuffer> buffers) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (ByteBuffer buffer : buffers) {
            byte[] bytes = new byte[buffer.remaining()];
            buffer.duplicate().get(bytes);
            out.writeBytes(bytes);
        }
        return out.toByteArray();
    }

    private static byte[] concat(byte[] first, byte[] second) {
        byte[] out = Arrays.copyOf(first, first.length + second.length);
        System.arraycopy(second, 0, out, first.length, second.length);
        return out;
    }
}
