package io.meshcontrol.relay.derp;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.core.key.NodePrivateKey;
import io.meshcontrol.core.key.NodePublicKey;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The relay's side of the mesh: what a client presenting the region's mesh key may do, and what others may not. */
class MeshFramesTest {

    private static final String KEY = "6d529e9d4ef632d22d4a4214cb49da8f1ba1b72697061fb24e312984c35ec8d8";
    private final DerpServer server = new DerpServer(NodePrivateKey.generate(), key -> true, Duration.ofMinutes(1),
            Duration.ofSeconds(10), 32, MeshKey.parse(KEY));

    @AfterEach
    void stop() {
        server.close();
    }

    private static FakeClient meshPeer(DerpServer relay, String key) throws Exception {
        FakeClient peer = FakeClient.connect(relay);
        peer.expect(FrameType.SERVER_KEY);
        peer.sendClientInfo(relay.publicKey(), "{\"version\":2,\"meshKey\":\"" + key + "\"}");
        return peer;
    }

    private FakeClient meshPeer(String key) throws Exception {
        return meshPeer(server, key);
    }

    private FakeClient client() throws Exception {
        return FakeClient.handshaken(server);
    }

    @Test
    void aMeshPeerIsAdmittedWithoutVerificationAndWatchesConnections() throws Exception {
        FakeClient already = client();
        FakeClient watcher = meshPeer(KEY);
        watcher.expect(FrameType.SERVER_INFO);
        watcher.send(new Frame(FrameType.WATCH_CONNS, new byte[0]));
        // First the clients connected now (the watcher itself among them), then each arrival and departure.
        List<NodePublicKey> present = new ArrayList<>();
        present.add(key(watcher.expect(FrameType.PEER_PRESENT)));
        present.add(key(watcher.expect(FrameType.PEER_PRESENT)));
        assertTrue(present.containsAll(List.of(already.publicKey(), watcher.publicKey())), present.toString());
        FakeClient arriving = client();
        Frame arrived = watcher.expect(FrameType.PEER_PRESENT);
        assertEquals(arriving.publicKey(), key(arrived));
        assertEquals(32 + 16 + 2 + 1, arrived.payload().length, "key, address, port and flags");
        assertEquals(1, arrived.payload()[50], "a regular client's flag");
        arriving.session.closed();
        Frame gone = watcher.expect(FrameType.PEER_GONE);
        assertEquals(arriving.publicKey(), key(gone));
        assertEquals(FrameType.PEER_GONE_DISCONNECTED, gone.payload()[32]);
    }

    @Test
    void aForwardedPacketReachesTheLocalClientFromItsOriginalSender() throws Exception {
        FakeClient local = client();
        FakeClient peer = meshPeer(KEY);
        peer.expect(FrameType.SERVER_INFO);
        NodePublicKey remoteSender = NodePrivateKey.generate().publicKey();
        peer.send(Frame.of(FrameType.FORWARD_PACKET, remoteSender.bytes(), local.publicKey().bytes(), new byte[] {7}));
        Frame got = local.expect(FrameType.RECV_PACKET);
        assertArrayEquals(remoteSender.bytes(), Arrays.copyOf(got.payload(), 32));
        assertArrayEquals(new byte[] {7}, Arrays.copyOfRange(got.payload(), 32, got.payload().length));
        assertEquals(1, server.stats().forwardedFromMesh.sum());
    }

    @Test
    void aForwardedPacketForAClientOfYetAnotherRelayIsDroppedNotSentOn() throws Exception {
        FakeClient local = client();
        NodePublicKey elsewhere = NodePrivateKey.generate().publicKey();
        List<byte[]> sentOn = new ArrayList<>();
        server.addForwarder(elsewhere, (source, destination, packet) -> sentOn.add(packet));
        FakeClient peer = meshPeer(KEY);
        peer.expect(FrameType.SERVER_INFO);
        NodePublicKey sender = NodePrivateKey.generate().publicKey();
        peer.send(Frame.of(FrameType.FORWARD_PACKET, sender.bytes(), elsewhere.bytes(), new byte[] {7}));
        // The next packet on the link reaching its local client shows the first one was handled.
        peer.send(Frame.of(FrameType.FORWARD_PACKET, sender.bytes(), local.publicKey().bytes(), new byte[] {8}));
        local.expect(FrameType.RECV_PACKET);
        // Stale views of two relays would otherwise bounce it between them: it ends here.
        assertEquals(1, server.stats().droppedUnknownDestination.sum());
        assertEquals(List.of(), sentOn);
        assertEquals(0, server.stats().forwardedToMesh.sum());
    }

    @Test
    void aPacketForAnotherRelaysClientGoesToItsForwarderAndItsDepartureIsToldToTheSender() throws Exception {
        FakeClient local = client();
        NodePublicKey remote = NodePrivateKey.generate().publicKey();
        List<byte[]> forwarded = new ArrayList<>();
        PacketForwarder link = (source, destination, packet) -> {
            assertEquals(local.publicKey(), source);
            assertEquals(remote, destination);
            return forwarded.add(packet);
        };
        server.addForwarder(remote, link);
        local.sendPacket(remote, new byte[] {1, 2});
        assertEquals(1, forwarded.size());
        assertArrayEquals(new byte[] {1, 2}, forwarded.getFirst());
        assertEquals(1, server.stats().forwardedToMesh.sum());
        server.removeForwarder(remote, link);
        Frame gone = local.expect(FrameType.PEER_GONE);
        assertEquals(remote, key(gone));
    }

    @Test
    void withoutTheMeshKeyMeshFramesDropTheClient() throws Exception {
        DerpServer plain = new DerpServer(NodePrivateKey.generate(), key -> true);
        try {
            FakeClient client = FakeClient.handshaken(plain);
            client.send(new Frame(FrameType.WATCH_CONNS, new byte[0]));
            assertTrue(client.closed);
        } finally {
            plain.close();
        }
    }

    @Test
    void theMeshKeyPassesVerificationAndAWrongOneDoesNot() throws Exception {
        DerpServer verifying = new DerpServer(NodePrivateKey.generate(), key -> false, MeshKey.parse(KEY));
        try {
            FakeClient peer = meshPeer(verifying, KEY);
            peer.expect(FrameType.SERVER_INFO);
            assertFalse(peer.closed);
            FakeClient stranger = meshPeer(verifying, "ff" + KEY.substring(2));
            assertTrue(stranger.closed, "a wrong mesh key makes an ordinary client, and verification refuses it");
            assertFalse(stranger.received.stream().anyMatch(f -> f.type() == FrameType.SERVER_INFO));
        } finally {
            verifying.close();
        }
    }

    @Test
    void theKeyFileFormIsSixtyFourHexDigits() {
        assertEquals(KEY, MeshKey.parse("  " + KEY + "\n").toHex());
        assertThrows(IllegalArgumentException.class, () -> MeshKey.parse("abcdefg"));
        assertThrows(IllegalArgumentException.class, () -> MeshKey.parse("zz" + KEY.substring(2)));
        assertFalse(MeshKey.parse(KEY).toString().contains(KEY.substring(0, 8)));
    }

    private static NodePublicKey key(Frame frame) {
        return NodePublicKey.fromRaw(Arrays.copyOf(frame.payload(), 32));
    }
}
