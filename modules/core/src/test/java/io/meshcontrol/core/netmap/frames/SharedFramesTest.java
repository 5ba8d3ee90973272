package io.meshcontrol.core.netmap.frames;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.meshcontrol.core.netmap.encoding.EncodedNodes;
import io.meshcontrol.core.wire.MapResponse;
import io.meshcontrol.core.wire.Node;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A batch's delta is encoded and compressed once for every stream that sends it. */
class SharedFramesTest {

    private static final Instant AT = Instant.parse("2026-11-22T05:00:00Z");

    private static MapResponse peerChanged(String name) {
        Node peer = Node.builder().id(7).stableId("n7CNTRL").name(name + ".mesh.test.").user(1).build();
        return MapResponse.builder().peersChanged(EncodedNodes.of(List.of(EncodedNodes.Encoded.of(peer))))
                .controlTime(AT).build();
    }

    @Test
    void streamsWithTheSameFormatGetTheSameBytesEncodedOnce() {
        SharedFrames frames = new SharedFrames();
        MapFrames first = MapFrames.zstd(MapFrames.DEFAULT_LEVEL);
        MapFrames second = MapFrames.zstd(MapFrames.DEFAULT_LEVEL);
        byte[] one = frames.frame(peerChanged("a"), first);
        assertSame(one, frames.frame(peerChanged("a"), second), "an equal message built by another session");
        byte[] plain = frames.frame(peerChanged("a"), MapFrames.plain());
        assertNotSame(one, plain, "another format is another frame");
        frames.frame(peerChanged("b"), first);
        assertEquals(3, frames.size());
    }

    @Test
    void aMessageWithTheSelfNodeIsTheSessionsOwn() {
        SharedFrames frames = new SharedFrames();
        MapResponse withSelf = MapResponse.builder().node(Node.builder().id(1).build()).controlTime(AT).build();
        frames.frame(withSelf, MapFrames.plain());
        assertEquals(0, frames.size());
    }
}
