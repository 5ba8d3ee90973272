package io.meshcontrol.core.netmap.frames;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.core.netmap.encoding.EncodedNodes;
import io.meshcontrol.core.wire.MapRequest;
import io.meshcontrol.core.wire.MapResponse;
import io.meshcontrol.core.wire.WireJson;
import io.meshcontrol.core.wire.WireSamples;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Map stream framing: little-endian length, then zstd (one or more frames) or plain JSON per message. */
class MapFramesTest {

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
    void blocksOfPeersAreFramesOfTheirOwnAndDecodeToTheSameJson() throws IOException {
        MapResponse message = WireSamples.fullMapInBlocks(40);
        byte[] whole = WireJson.write(message);
        assertArrayEquals(whole, WireJson.write(WireSamples.fullMap(40)), "blocks change nothing in the JSON");
        try (MapFrames frames = MapFrames.zstd(MapFrames.DEFAULT_LEVEL)) {
            byte[] frame = frames.encode(message);
            assertArrayEquals(whole, new MapFrameReader(new ByteArrayInputStream(frame), true).nextJson());
            // six zstd frames: before the first block, two blocks side by side, the single peer, the block, after it
            assertEquals(6, frameCount(frame));
            byte[] body = Arrays.copyOfRange(frame, 4, frame.length);
            assertEquals(-1, com.github.luben.zstd.Zstd.getFrameContentSize(body), "no content size: see encode");
        }
        try (MapFrames plain = MapFrames.plain()) {
            assertArrayEquals(whole, new MapFrameReader(new ByteArrayInputStream(plain.encode(message)), false)
                    .nextJson());
        }
    }

    @Test
    void blocksSideBySideAreKeptFramesWithNothingCompressedBetweenThem() throws IOException {
        List<EncodedNodes.Encoded> peers = ((EncodedNodes) WireSamples.fullMapInBlocks(30).peers()).encoded();
        EncodedNodes.Block first = new EncodedNodes.Block(peers.subList(0, 10));
        EncodedNodes.Block second = new EncodedNodes.Block(peers.subList(10, 20));
        EncodedNodes.Block third = new EncodedNodes.Block(peers.subList(20, 30));
        MapResponse message = MapResponse.builder().domain("mesh.example")
                .peers(EncodedNodes.ofParts(List.of(first, second, third))).build();
        try (MapFrames frames = MapFrames.zstd(MapFrames.DEFAULT_LEVEL)) {
            byte[] frame = frames.encode(message);
            assertArrayEquals(WireJson.write(message), new MapFrameReader(new ByteArrayInputStream(frame), true)
                    .nextJson());
            // the message before the list, the three blocks (the second and third with the comma before them), the rest
            assertEquals(5, frameCount(frame));
            assertTrue(indexOf(frame, second.frame(MapFrames.DEFAULT_LEVEL, true)) > 0);
            assertTrue(indexOf(frame, third.frame(MapFrames.DEFAULT_LEVEL, true)) > 0);
            assertNull(second.frame(MapFrames.DEFAULT_LEVEL, false), "only the form this message needs");
        }
    }

    private static int frameCount(byte[] frame) {
        byte[] body = Arrays.copyOfRange(frame, 4, frame.length);
        int count = 0;
        for (int at = 0; at < body.length; count++) {
            at += (int) com.github.luben.zstd.Zstd.findFrameCompressedSize(body, at);
        }
        return count;
    }

    @Test
    void aBlockIsCompressedOnceForEveryMessageThatCarriesIt() {
        EncodedNodes.Block block = ((EncodedNodes) WireSamples.fullMapInBlocks(30).peers()).parts().stream()
                .filter(EncodedNodes.Block.class::isInstance).map(EncodedNodes.Block.class::cast).findFirst()
                .orElseThrow();
        MapResponse first = MapResponse.builder().peers(EncodedNodes.ofParts(List.of(block))).build();
        MapResponse second = MapResponse.builder().peers(EncodedNodes.ofParts(List.of(block)))
                .domain("another.example").build();
        try (MapFrames frames = MapFrames.zstd(MapFrames.DEFAULT_LEVEL)) {
            frames.encode(first);
            byte[] kept = block.frame(MapFrames.DEFAULT_LEVEL, false);
            byte[] again = frames.encode(second);
            assertSame(kept, block.frame(MapFrames.DEFAULT_LEVEL, false), "compressed once");
            assertTrue(indexOf(again, kept) > 0, "the second message carries the kept bytes");
        }
    }

    private static int indexOf(byte[] haystack, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= haystack.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
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
