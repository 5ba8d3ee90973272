package io.meshcontrol.core.netmap;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdInputStream;
import io.meshcontrol.core.auth.Caller;
import io.meshcontrol.core.model.Node;
import io.meshcontrol.core.model.Role;
import io.meshcontrol.core.netmap.context.MapContext;
import io.meshcontrol.core.netmap.encoding.EncodedNodes;
import io.meshcontrol.core.netmap.frames.MapFrame;
import io.meshcontrol.core.netmap.frames.MapFrames;
import io.meshcontrol.core.policy.Policy;
import io.meshcontrol.core.routes.RouteTable;
import io.meshcontrol.core.state.Network;
import io.meshcontrol.core.state.Users;
import io.meshcontrol.core.testing.AuthKey;
import io.meshcontrol.core.testing.Machine;
import io.meshcontrol.core.testing.TestNetwork;
import io.meshcontrol.core.wire.DERPMap;
import io.meshcontrol.core.wire.DNSConfig;
import io.meshcontrol.core.wire.MapResponse;
import io.meshcontrol.core.wire.WireJson;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A full map's body as a stream sends it (kept blocks of peers as zstd frames of their own, written from the arrays
 * every map shares, the rest compressed per map), read back as one zstd stream by zstd-jni's streaming decoder: the
 * same bytes as the message's JSON written in one piece, under allow-all (most of the body is kept frames shared with
 * other viewers) and under {@code autogroup:self} (nearly nothing shared).
 */
class FullMapBodyTest {

    private static final int NODES = 150;
    private static final int USERS = 3;

    @TempDir
    Path folder;
    Network network;
    final MapContext context = new MapContext("TtestCNTRL", "mesh.test",
            DNSConfig.builder().domains(List.of("mesh.test")).proxied(true).build(),
            new DERPMap(null, Map.of(), false));
    final List<Node> nodes = new ArrayList<>();

    @BeforeEach
    void setUp() {
        network = new TestNetwork(folder).network;
        List<String> keys = new ArrayList<>();
        for (int user = 0; user < USERS; user++) {
            network.users().create(Caller.localAdmin(), new Users.NewUser("user" + user, "User " + user,
                    "user" + user + "@example.com", Role.MEMBER));
            keys.add(AuthKey.forUser("user" + user).reusable().create(network));
        }
        for (int i = 0; i < NODES; i++) {
            nodes.add(Machine.named("node" + i).join(network, keys.get(i % USERS)));
            if (i % 2 == 0) {
                network.presence().connected(nodes.getLast()); // online and offline forms both
            }
        }
    }

    @Test
    void allowAllBodyIsMostlyKeptFramesAndDecodesAsOneStreamToTheMapsJson() throws IOException {
        AccessRules rules = AccessRules.compile(Policy.EMPTY, network.snapshots().current());
        PeerForms forms = new PeerForms();
        Node viewer = nodes.get(NODES / 2); // in the middle block: kept blocks before and after its own
        MapResponse map = new MapSessionState(viewer.id(), 142, forms).initial(inputs(rules));
        EncodedNodes peers = (EncodedNodes) map.peers();
        assertEquals(NODES - 1, peers.size());
        List<EncodedNodes.Block> blocks = peers.parts().stream().filter(EncodedNodes.Block.class::isInstance)
                .map(EncodedNodes.Block.class::cast).toList();
        assertEquals(2, blocks.size(), "every block but the viewer's own");

        byte[] frame = encode(map);
        assertArrayEquals(WireJson.write(map), decodeAsOneStream(frame));
        // the head, the block before the viewer's, the viewer's block as single peers, the block after it, the rest
        assertEquals(5, frameCount(frame));

        // Another viewer in the same block gets the same kept frames: compressed once for both maps.
        byte[] kept = blocks.getLast().frame(MapFrames.DEFAULT_LEVEL, true);
        MapResponse other = new MapSessionState(nodes.get(NODES / 2 + 1).id(), 142, forms).initial(inputs(rules));
        EncodedNodes.Block same = ((EncodedNodes) other.peers()).parts().stream()
                .filter(EncodedNodes.Block.class::isInstance).map(EncodedNodes.Block.class::cast).toList().getLast();
        assertSame(blocks.getLast(), same);
        MapFrame pieces;
        try (MapFrames frames = MapFrames.zstd(MapFrames.DEFAULT_LEVEL)) {
            pieces = frames.encodeInPieces(other);
        }
        assertSame(kept, same.frame(MapFrames.DEFAULT_LEVEL, true));
        assertTrue(pieces.pieces().stream().anyMatch(piece -> piece == kept), "written from the kept array, no copy");
        ByteArrayOutputStream written = new ByteArrayOutputStream();
        pieces.writeTo(written);
        assertEquals(pieces.length(), written.size());
        assertArrayEquals(WireJson.write(other), decodeAsOneStream(written.toByteArray()));
    }

    @Test
    void selfBodyDecodesAsOneStreamToTheMapsJson() throws IOException {
        AccessRules rules = AccessRules.compile(Policy.parse("""
                {"acls": [{"action": "accept", "src": ["autogroup:member"], "dst": ["autogroup:self:*"]}]}"""),
                network.snapshots().current(), "https://control.test");
        for (Node viewer : List.of(nodes.getFirst(), nodes.get(NODES / 2), nodes.getLast())) {
            MapResponse map = new MapSessionState(viewer.id(), 142).initial(inputs(rules));
            assertEquals(NODES / USERS - 1, map.peers().size());
            assertFalse(((EncodedNodes) map.peers()).hasBlocks(), "no block is whole when users' nodes interleave");
            assertArrayEquals(WireJson.write(map), decodeAsOneStream(encode(map)));
        }
    }

    private MapInputs inputs(AccessRules rules) {
        return new MapInputs(network.snapshots().current(), rules, RouteTable.EMPTY, context, Instant.now());
    }

    private static byte[] encode(MapResponse map) {
        try (MapFrames frames = MapFrames.zstd(MapFrames.DEFAULT_LEVEL)) {
            return frames.encode(map);
        }
    }

    /** The body after the 4-byte header, through one streaming decoder, as a client reads it. */
    private static byte[] decodeAsOneStream(byte[] frame) throws IOException {
        assertEquals(frame.length - MapFrames.HEADER_LENGTH, MapFrames.bodyLength(frame, 0));
        try (InputStream zstd = new ZstdInputStream(new ByteArrayInputStream(frame, MapFrames.HEADER_LENGTH,
                frame.length - MapFrames.HEADER_LENGTH))) {
            return zstd.readAllBytes();
        }
    }

    private static int frameCount(byte[] frame) {
        byte[] body = Arrays.copyOfRange(frame, MapFrames.HEADER_LENGTH, frame.length);
        int count = 0;
        for (int at = 0; at < body.length; count++) {
            at += (int) Zstd.findFrameCompressedSize(body, at);
        }
        return count;
    }
}
