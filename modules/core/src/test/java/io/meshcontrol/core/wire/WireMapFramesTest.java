package io.meshcontrol.core.wire;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Map stream framing: little-endian length, then zstd or plain JSON, one independent frame per message. */
class WireMapFramesTest {

    @Test
    void zstdFramesReadBackAsTheSameMessages() throws IOException {
        List<MapResponse> messages = List.of(WireSamples.fullMap(20), MapResponse.KEEP_ALIVE, WireSamples.deltaMap());
        ByteArrayOutputStream stream = new ByteArrayOutputStream();
        try (MapFrames frames = MapFrames.zstd(MapFrames.DEFAULT_LEVEL)) {
            for (MapResponse message : messages) {
                stream.writeBytes(frames.encode(message));
            }
        }
        MapFrameReader reader = new MapFrameReader(new ByteArrayInputStream(stream.toByteArray()), true);
        for (MapResponse message : messages) {
            assertEquals(message, reader.next());
        }
        assertNull(reader.next());
    }

    @Test
    void theHeaderIsTheLittleEndianBodyLength() {
        byte[] json = new byte[0x010203];
        Arrays.fill(json, (byte) ' ');
        json[0] = '{';
        json[json.length - 1] = '}';
        byte[] frame = MapFrames.plain().encodeJson(json);
        assertArrayEquals(new byte[] {0x03, 0x02, 0x01, 0x00}, Arrays.copyOf(frame, 4));
        assertEquals(4 + json.length, frame.length);
    }

    @Test
    void zstdShrinksAMapAndDeclaresItsContentSize() throws IOException {
        byte[] json = WireJson.write(WireSamples.fullMap(200));
        try (MapFrames frames = MapFrames.zstd(MapFrames.DEFAULT_LEVEL)) {
            byte[] frame = frames.encodeJson(json);
            int length = MapFrames.bodyLength(frame, 0);
            assertEquals(frame.length - 4, length);
            assertTrue(length * 5 < json.length, "compressed " + json.length + " to " + length);
            byte[] body = Arrays.copyOfRange(frame, 4, frame.length);
            assertEquals(json.length, com.github.luben.zstd.Zstd.getFrameContentSize(body));
            assertArrayEquals(json, new MapFrameReader(new ByteArrayInputStream(frame), true).nextJson());
        }
    }

    @Test
    void keepAliveFramesAreIdenticalSoTheClientCanSkipDecompressing() {
        try (MapFrames first = MapFrames.zstd(MapFrames.DEFAULT_LEVEL);
                MapFrames second = MapFrames.zstd(MapFrames.DEFAULT_LEVEL)) {
            assertSame(first.keepAlive(), first.keepAlive());
            assertArrayEquals(first.keepAlive(), second.keepAlive());
            assertArrayEquals(first.keepAlive(), first.encode(MapResponse.KEEP_ALIVE));
        }
    }

    @Test
    void plainFramesCarryTheJsonAsIs() throws IOException {
        byte[] frame = MapFrames.plain().keepAlive();
        assertEquals("{\"KeepAlive\":true}", new String(frame, 4, frame.length - 4));
        assertEquals(MapResponse.KEEP_ALIVE, new MapFrameReader(new ByteArrayInputStream(frame), false).next());
    }

    @Test
    void theRequestChoosesCompression() {
        try (MapFrames zstd = MapFrames.forRequest(WireJson.read("{\"Compress\":\"zstd\"}", MapRequest.class));
                MapFrames plain = MapFrames.forRequest(WireJson.read("{}", MapRequest.class))) {
            assertTrue(zstd.compresses());
            assertEquals(false, plain.compresses());
        }
    }

    @Test
    void aStreamCutInsideAFrameIsAnError() {
        byte[] frame = MapFrames.plain().keepAlive();
        MapFrameReader cutBody = new MapFrameReader(new ByteArrayInputStream(Arrays.copyOf(frame, 10)), false);
        assertThrows(EOFException.class, cutBody::next);
        MapFrameReader cutHeader = new MapFrameReader(new ByteArrayInputStream(Arrays.copyOf(frame, 2)), false);
        assertThrows(EOFException.class, cutHeader::next);
    }
}
