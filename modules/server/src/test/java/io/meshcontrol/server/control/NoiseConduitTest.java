package io.meshcontrol.server.control;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.core.crypto.AcceptedHandshake;
import io.meshcontrol.core.crypto.NoiseFrames;
import io.meshcontrol.core.crypto.NoiseInitiator;
import io.meshcontrol.core.crypto.NoiseProtocolException;
import io.meshcontrol.core.crypto.NoiseResponder;
import io.meshcontrol.core.crypto.NoiseTransport;
import io.meshcontrol.core.crypto.RecordDecoder;
import io.meshcontrol.core.key.MachinePrivateKey;
import io.undertow.server.DefaultByteBufferPool;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Noise conduits on their own, between scripted socket conduits and the peer's real record codec: every byte
 * must arrive, in order, however the socket cuts and throttles the stream.
 */
class NoiseConduitTest {

    private static final int LARGE = 3 * 1024 * 1024 + 12_345;

    private final DefaultByteBufferPool pool = new DefaultByteBufferPool(false, 16 * 1024);
    /** The server's side of a real handshake. */
    private NoiseTransport server;
    /** The client's side, to seal what the server reads and open what it writes. */
    private NoiseTransport client;
    private byte[] handshakeResponse;
    private final List<NoiseProtocolException> problems = new ArrayList<>();

    @TempDir
    Path folder;

    @BeforeEach
    void handshake() throws IOException {
        MachinePrivateKey serverKey = MachinePrivateKey.generate();
        NoiseInitiator initiator = NoiseInitiator.start(MachinePrivateKey.generate(), serverKey.publicKey(), 130);
        AcceptedHandshake accepted = new NoiseResponder(serverKey).respond(initiator.initiationMessage());
        server = accepted.transport();
        client = initiator.complete(accepted.response());
        handshakeResponse = accepted.response();
    }

    @Test
    void largeWriteArrivesWholeThroughAThrottledSocket() throws IOException {
        ScriptedConduits.Sink socket = new ScriptedConduits.Sink(1, 7000);
        EncryptingSinkConduit sink = sink(socket, new byte[0]);
        byte[] data = pattern(LARGE, 3);
        ByteBuffer src = ByteBuffer.wrap(data);
        Random random = new Random(2);
        while (src.hasRemaining()) {
            socket.blocked = random.nextInt(4) == 0;
            sink.write(src);
        }
        socket.blocked = false;
        flushFully(sink);

        List<byte[]> records = records(socket.taken.toByteArray());
        assertArrayEquals(data, concat(records));
        long partial = records.stream().filter(r -> r.length < NoiseFrames.MAX_PLAINTEXT_LENGTH).count();
        assertEquals(1, partial, "every record but the last is full, however the socket throttles");
    }

    @Test
    void gatheringWritesOfSmallPiecesShareRecords() throws IOException {
        ScriptedConduits.Sink socket = new ScriptedConduits.Sink(4, 100_000);
        EncryptingSinkConduit sink = sink(socket, new byte[0]);
        ByteArrayOutputStream sent = new ByteArrayOutputStream();
        int writeCalls = 0;
        for (int i = 0; i < 2_000; i++) {
            // What Undertow's HTTP/2 channel writes: frame header, payload, empty trailer, for a few frames at once.
            ByteBuffer[] frames = {ByteBuffer.wrap(pattern(9, i)), ByteBuffer.wrap(pattern(i % 300, i + 1)),
                ByteBuffer.allocate(0), ByteBuffer.wrap(pattern(9, i + 2)), ByteBuffer.wrap(pattern(40, i + 3))};
            for (ByteBuffer frame : frames) {
                sent.writeBytes(frame.duplicate().array());
            }
            long remaining = Arrays.stream(frames).mapToLong(ByteBuffer::remaining).sum();
            while (remaining > 0) {
                remaining -= sink.write(frames, 0, frames.length);
                writeCalls++;
            }
            flushFully(sink);
        }

        List<byte[]> records = records(socket.taken.toByteArray());
        assertArrayEquals(sent.toByteArray(), concat(records));
        assertTrue(records.size() <= writeCalls, records.size() + " records for " + writeCalls + " write calls");
    }

    @Test
    void manySmallWritesEachFlushedArriveInOrder() throws IOException {
        ScriptedConduits.Sink socket = new ScriptedConduits.Sink(5, 50);
        EncryptingSinkConduit sink = sink(socket, new byte[0]);
        ByteArrayOutputStream sent = new ByteArrayOutputStream();
        ByteArrayOutputStream received = new ByteArrayOutputStream();
        int opened = 0;
        for (int i = 0; i < 10_000; i++) {
            byte[] piece = pattern(1 + i % 17, i);
            sent.writeBytes(piece);
            ByteBuffer src = ByteBuffer.wrap(piece);
            while (src.hasRemaining()) {
                sink.write(src);
            }
            flushFully(sink);
            byte[] wire = socket.taken.toByteArray();
            received.writeBytes(concat(records(Arrays.copyOfRange(wire, opened, wire.length))));
            opened = wire.length;
            assertEquals(sent.size(), received.size(), "after a successful flush the socket has every byte written");
        }
        assertArrayEquals(sent.toByteArray(), received.toByteArray());
    }

    @Test
    void writtenBytesWaitForFlushWhenTheSocketIsBusy() throws IOException {
        ScriptedConduits.Sink socket = new ScriptedConduits.Sink(6, 100_000);
        EncryptingSinkConduit sink = sink(socket, new byte[0]);
        socket.blocked = true;
        assertEquals(100, sink.write(ByteBuffer.wrap(pattern(100, 1))), "accepted and sealed, not yet sent");
        assertFalse(sink.flush(), "the socket takes nothing");
        assertEquals(0, socket.taken.size());
        socket.blocked = false;
        assertTrue(sink.flush());
        assertArrayEquals(pattern(100, 1), concat(records(socket.taken.toByteArray())));
    }

    @Test
    void terminationWaitsUntilTheLastRecordLeft() throws IOException {
        ScriptedConduits.Sink socket = new ScriptedConduits.Sink(7, 100);
        EncryptingSinkConduit sink = sink(socket, new byte[0]);
        sink.write(ByteBuffer.wrap(pattern(10_000, 1)));
        sink.terminateWrites();
        assertTrue(sink.isWriteShutdown());
        assertFalse(socket.terminated, "records are still waiting");
        assertThrows(ClosedChannelException.class, () -> sink.write(ByteBuffer.wrap(new byte[1])));
        flushFully(sink);
        assertTrue(socket.terminated);
        assertEquals(socket.taken.size(), socket.takenAtTermination, "terminated only after the last byte");
        assertArrayEquals(pattern(10_000, 1), concat(records(socket.taken.toByteArray())));
    }

    @Test
    void preambleLeavesFirstAndUnencrypted() throws IOException {
        ScriptedConduits.Sink socket = new ScriptedConduits.Sink(8, 10);
        EncryptingSinkConduit sink = sink(socket, handshakeResponse);
        sink.write(ByteBuffer.wrap(pattern(500, 2)));
        flushFully(sink);
        byte[] wire = socket.taken.toByteArray();
        assertArrayEquals(handshakeResponse, Arrays.copyOf(wire, handshakeResponse.length));
        assertArrayEquals(pattern(500, 2),
                concat(records(Arrays.copyOfRange(wire, handshakeResponse.length, wire.length))));
    }

    @Test
    void sinkTransfersFromAFile() throws IOException {
        Path file = folder.resolve("data");
        byte[] data = pattern(200_000, 9);
        Files.write(file, data);
        ScriptedConduits.Sink socket = new ScriptedConduits.Sink(9, 100_000);
        EncryptingSinkConduit sink = sink(socket, new byte[0]);
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            long position = 0;
            while (position < data.length) {
                position += sink.transferFrom(channel, position, data.length - position);
            }
        }
        flushFully(sink);
        assertArrayEquals(data, concat(records(socket.taken.toByteArray())));
    }

    @Test
    void largeStreamCutAtRandomPointsIsReadWhole() throws IOException {
        byte[] data = pattern(LARGE, 11);
        ScriptedConduits.Source socket = new ScriptedConduits.Source(12, 9000)
                .deliver(client.encoder().encode(data)).end();
        DecryptingSourceConduit source = source(socket);
        ByteArrayOutputStream read = new ByteArrayOutputStream();
        Random random = new Random(13);
        while (true) {
            ByteBuffer dst = ByteBuffer.allocate(1 + random.nextInt(20_000));
            int count = source.read(dst);
            if (count < 0) {
                break;
            }
            read.write(dst.array(), 0, count);
        }
        assertArrayEquals(data, read.toByteArray());
        assertTrue(problems.isEmpty());
    }

    @Test
    void scatteringReadsFillSeveralBuffers() throws IOException {
        byte[] data = pattern(100_000, 14);
        ScriptedConduits.Source socket = new ScriptedConduits.Source(15, 5000)
                .deliver(client.encoder().encode(data)).end();
        DecryptingSourceConduit source = source(socket);
        ByteArrayOutputStream read = new ByteArrayOutputStream();
        while (true) {
            ByteBuffer[] dsts = {ByteBuffer.allocate(9), ByteBuffer.allocate(1000), ByteBuffer.allocate(3)};
            long count = source.read(dsts, 0, dsts.length);
            if (count < 0) {
                break;
            }
            for (ByteBuffer dst : dsts) {
                read.write(dst.array(), 0, dst.position());
            }
        }
        assertArrayEquals(data, read.toByteArray());
    }

    @Test
    void plaintextLeftAfterAReadAsksForAnotherReadEvent() throws IOException {
        // Three records arrive in one socket read; the reader takes 10 bytes at a time.
        byte[] data = pattern(3 * NoiseFrames.MAX_PLAINTEXT_LENGTH, 16);
        ScriptedConduits.Source socket = new ScriptedConduits.Source(17, Integer.MAX_VALUE)
                .deliver(client.encoder().encode(data));
        DecryptingSourceConduit source = source(socket);
        int count;
        do {
            count = source.read(ByteBuffer.allocate(10));
        } while (count == 0);
        assertEquals(10, count);
        assertTrue(socket.wakeups > 0, "the selector would never say so: the bytes are no longer in the socket");

        socket.suspendReads();
        int wakeupsBefore = socket.wakeups;
        source.resumeReads();
        assertEquals(wakeupsBefore + 1, socket.wakeups, "resuming with plaintext waiting wakes, not just resumes");
    }

    @Test
    void resumingWithNothingBufferedOnlyResumes() {
        ScriptedConduits.Source socket = new ScriptedConduits.Source(18, 100);
        DecryptingSourceConduit source = source(socket);
        source.resumeReads();
        assertEquals(1, socket.resumes);
        assertEquals(0, socket.wakeups);
    }

    @Test
    void zeroLengthRecordsAreSkipped() throws IOException {
        ByteArrayOutputStream wire = new ByteArrayOutputStream();
        wire.writeBytes(client.encoder().encrypt(new byte[0]));
        wire.writeBytes(client.encoder().encrypt(pattern(5, 1)));
        wire.writeBytes(client.encoder().encrypt(new byte[0]));
        ScriptedConduits.Source socket = new ScriptedConduits.Source(19, 1000).deliver(wire.toByteArray()).end();
        DecryptingSourceConduit source = source(socket);
        ByteBuffer dst = ByteBuffer.allocate(100);
        int total = 0;
        int count;
        while ((count = source.read(dst)) >= 0) {
            total += count;
        }
        assertEquals(5, total);
    }

    @Test
    void aBadRecordIsReportedOnceAndEveryReadFails() {
        byte[] forged = {4, 0, 20, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20};
        ScriptedConduits.Source socket = new ScriptedConduits.Source(20, 1000).deliver(forged);
        DecryptingSourceConduit source = source(socket);
        NoiseProtocolException first = assertThrows(NoiseProtocolException.class, () -> readUntilSomething(source));
        assertEquals(NoiseProtocolException.Problem.DECRYPTION_FAILED, first.problem());
        NoiseProtocolException again = assertThrows(NoiseProtocolException.class,
                () -> source.read(ByteBuffer.allocate(10)));
        assertSame(first, again);
        assertEquals(List.of(first), problems);
    }

    @Test
    void theStreamEndingInsideARecordIsATruncation() throws IOException {
        byte[] record = client.encoder().encrypt(pattern(100, 1));
        ScriptedConduits.Source socket = new ScriptedConduits.Source(21, 1000)
                .deliver(Arrays.copyOf(record, 50)).end();
        DecryptingSourceConduit source = source(socket);
        NoiseProtocolException e = assertThrows(NoiseProtocolException.class, () -> readUntilSomething(source));
        assertEquals(NoiseProtocolException.Problem.TRUNCATED_FRAME, e.problem());
        assertEquals(1, problems.size());
    }

    @Test
    void anOversizedFrameIsRefusedFromItsHeader() {
        ScriptedConduits.Source oversized = new ScriptedConduits.Source(22, 1000).deliver(new byte[] {4, 0x20, 0});
        assertEquals(NoiseProtocolException.Problem.FRAME_TOO_LARGE,
                assertThrows(NoiseProtocolException.class, () -> readUntilSomething(source(oversized))).problem());
    }

    @Test
    void plaintextGarbageIsAnUnknownFrameType() {
        ScriptedConduits.Source unknown = new ScriptedConduits.Source(23, 1000).deliver("GET / HTTP/1.1\r\n".getBytes());
        assertEquals(NoiseProtocolException.Problem.UNKNOWN_MESSAGE_TYPE,
                assertThrows(NoiseProtocolException.class, () -> readUntilSomething(source(unknown))).problem());
    }

    @Test
    void sourceTransfersToAFile() throws IOException {
        byte[] data = pattern(150_000, 24);
        ScriptedConduits.Source socket = new ScriptedConduits.Source(25, 3000)
                .deliver(client.encoder().encode(data)).end();
        DecryptingSourceConduit source = source(socket);
        Path file = folder.resolve("received");
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
            long position = 0;
            for (int idle = 0; position < data.length && idle < 1000; ) {
                long moved = source.transferTo(position, data.length - position, channel);
                position += moved;
                idle = moved == 0 ? idle + 1 : 0;
            }
        }
        assertArrayEquals(data, Files.readAllBytes(file));
    }

    private static int readUntilSomething(DecryptingSourceConduit source) throws IOException {
        for (int i = 0; i < 1000; i++) {
            int count = source.read(ByteBuffer.allocate(100));
            if (count != 0) {
                return count;
            }
        }
        return 0;
    }

    private EncryptingSinkConduit sink(ScriptedConduits.Sink socket, byte[] preamble) {
        return new EncryptingSinkConduit(socket, server.encoder(), pool, preamble);
    }

    private DecryptingSourceConduit source(ScriptedConduits.Source socket) {
        return new DecryptingSourceConduit(socket, server.decoder(), pool, problems::add);
    }

    private static void flushFully(EncryptingSinkConduit sink) throws IOException {
        for (int i = 0; i < 100_000; i++) {
            if (sink.flush()) {
                return;
            }
        }
        throw new AssertionError("flush never completed");
    }

    /** The plaintext of each record on the wire, opened by the client. */
    private List<byte[]> records(byte[] wire) throws IOException {
        RecordDecoder decoder = client.decoder();
        List<byte[]> records = new ArrayList<>();
        for (ByteBuffer record : decoder.decodeAvailable(ByteBuffer.wrap(wire))) {
            byte[] bytes = new byte[record.remaining()];
            record.get(bytes);
            records.add(bytes);
        }
        assertFalse(decoder.hasPartialFrame(), "the wire ends on a record boundary");
        return records;
    }

    private static byte[] concat(List<byte[]> pieces) {
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        pieces.forEach(all::writeBytes);
        return all.toByteArray();
    }

    static byte[] pattern(int length, int seed) {
        byte[] bytes = new byte[length];
        for (int i = 0; i < length; i++) {
            bytes[i] = (byte) (seed * 31 + 7 * i + i / 251);
        }
        return bytes;
    }
}
