package io.meshcontrol.relay.derp;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.core.RateLimitedLog;
import io.meshcontrol.core.key.NodePrivateKey;
import io.meshcontrol.core.key.NodePublicKey;
import io.meshcontrol.core.testing.Await;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Predicate;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class DerpSessionTest {

    private static final byte[] DISCO = {0x54, 0x53, (byte) 0xf0, (byte) 0x9f, (byte) 0x92, (byte) 0xac, 1, 2, 3};
    private DerpServer server;

    private DerpServer server(Predicate<NodePublicKey> admission, Duration keepAlive, Duration handshake, int depth) {
        server = new DerpServer(NodePrivateKey.generate(), admission, keepAlive, handshake, depth);
        return server;
    }

    private DerpServer server() {
        return server(key -> true, Duration.ofMinutes(1), Duration.ofSeconds(10), 32);
    }

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void serverKeyFrameCarriesMagicAndKey() throws Exception {
        DerpServer relay = server();
        FakeClient client = FakeClient.connect(relay);
        Frame key = client.expect(FrameType.SERVER_KEY);
        assertArrayEquals(FrameType.magic(), Arrays.copyOf(key.payload(), 8));
        assertArrayEquals(relay.publicKey().bytes(), Arrays.copyOfRange(key.payload(), 8, 40));
        assertEquals(40, key.payload().length);
    }

    @Test
    void handshakeAnswersSealedServerInfoAndRegistersTheClient() throws Exception {
        DerpServer relay = server();
        FakeClient client = FakeClient.handshaken(relay);
        assertEquals(List.of(client.publicKey()), relay.clients().stream().map(DerpSession::clientKey).toList());
    }

    @Test
    void unknownNodeIsRefusedBeforeServerInfo() throws Exception {
        DerpServer relay = server(key -> false, Duration.ofMinutes(1), Duration.ofSeconds(10), 32);
        FakeClient client = FakeClient.connect(relay);
        client.expect(FrameType.SERVER_KEY);
        client.sendClientInfo(relay.publicKey());
        assertTrue(client.closed);
        assertTrue(client.drain().isEmpty());
        assertTrue(relay.clients().isEmpty());
        assertEquals(1, relay.stats().refusedClients.sum());
    }

    @Test
    void clientInfoSealedToAnotherKeyIsRefused() throws Exception {
        DerpServer relay = server();
        FakeClient client = FakeClient.connect(relay);
        client.sendClientInfo(NodePrivateKey.generate().publicKey());
        assertTrue(client.closed);
        assertTrue(relay.clients().isEmpty());
    }

    @Test
    void packetIsRelayedWithTheSourceKey() throws Exception {
        DerpServer relay = server();
        FakeClient a = FakeClient.handshaken(relay);
        FakeClient b = FakeClient.handshaken(relay);
        a.sendPacket(b.publicKey(), new byte[] {9, 8, 7});
        Frame got = b.expect(FrameType.RECV_PACKET);
        assertArrayEquals(a.publicKey().bytes(), Arrays.copyOf(got.payload(), 32));
        assertArrayEquals(new byte[] {9, 8, 7}, Arrays.copyOfRange(got.payload(), 32, got.payload().length));
    }

    @Test
    void frameSplitIntoSinglBytesIsStillOneFrame() throws Exception {
        DerpServer relay = server();
        FakeClient a = FakeClient.handshaken(relay);
        FakeClient b = FakeClient.handshaken(relay);
        for (byte x : Frame.of(FrameType.SEND_PACKET, b.publicKey().bytes(), new byte[] {5}).encode()) {
            a.send(new byte[] {x});
        }
        assertEquals(33, b.expect(FrameType.RECV_PACKET).payload().length);
    }

    @Test
    void pingIsAnsweredWithPong() throws Exception {
        FakeClient client = FakeClient.handshaken(server());
        byte[] data = {1, 2, 3, 4, 5, 6, 7, 8};
        client.send(new Frame(FrameType.PING, data));
        assertArrayEquals(data, client.expect(FrameType.PONG).payload());
    }

    @Test
    void notePreferredIsRemembered() throws Exception {
        FakeClient client = FakeClient.handshaken(server());
        assertFalse(client.session.preferred());
        client.send(new Frame(FrameType.NOTE_PREFERRED, new byte[] {1}));
        assertTrue(client.session.preferred());
    }

    @Test
    void fullQueueDropsTheOldestPacket() throws Exception {
        DerpServer relay = server(key -> true, Duration.ofMinutes(1), Duration.ofSeconds(10), 2);
        FakeClient a = FakeClient.handshaken(relay);
        FakeClient b = FakeClient.handshaken(relay);
        b.stalled = true;
        for (byte i = 1; i <= 4; i++) {
            a.sendPacket(b.publicKey(), new byte[] {i});
        }
        b.stalled = false;
        b.writeReady();
        assertEquals(3, b.expect(FrameType.RECV_PACKET).payload()[32]);
        assertEquals(4, b.expect(FrameType.RECV_PACKET).payload()[32]);
        assertEquals(2, relay.stats().droppedQueueHead.sum());
        assertFalse(a.closed);
    }

    @Test
    void discoPacketsHaveTheirOwnLane() throws Exception {
        DerpServer relay = server(key -> true, Duration.ofMinutes(1), Duration.ofSeconds(10), 1);
        FakeClient a = FakeClient.handshaken(relay);
        FakeClient b = FakeClient.handshaken(relay);
        b.stalled = true;
        a.sendPacket(b.publicKey(), DISCO);
        a.sendPacket(b.publicKey(), new byte[] {1});
        a.sendPacket(b.publicKey(), new byte[] {2});
        b.stalled = false;
        b.writeReady();
        assertEquals(0x54, b.expect(FrameType.RECV_PACKET).payload()[32]);
        assertEquals(2, b.expect(FrameType.RECV_PACKET).payload()[32]);
    }

    @Test
    void oversizedLengthDropsOnlyThatClient() throws Exception {
        DerpServer relay = server();
        FakeClient bad = FakeClient.handshaken(relay);
        FakeClient a = FakeClient.handshaken(relay);
        FakeClient b = FakeClient.handshaken(relay);
        bad.send(ByteBuffer.allocate(5).put(FrameType.SEND_PACKET).putInt(FrameType.MAX_FRAME_LENGTH + 1).array());
        assertTrue(bad.closed);
        a.sendPacket(b.publicKey(), new byte[] {1});
        b.expect(FrameType.RECV_PACKET);
        assertFalse(a.closed);
        assertFalse(b.closed);
        assertEquals(2, relay.clients().size());
    }

    @Test
    void packetAboveSixtyFourKibibytesDropsTheSender() throws Exception {
        DerpServer relay = server();
        FakeClient a = FakeClient.handshaken(relay);
        FakeClient b = FakeClient.handshaken(relay);
        a.sendPacket(b.publicKey(), new byte[FrameType.MAX_PACKET_SIZE + 1]);
        assertTrue(a.closed);
        assertFalse(b.closed);
    }

    @Test
    void maximumPacketIsRelayed() throws Exception {
        DerpServer relay = server();
        FakeClient a = FakeClient.handshaken(relay);
        FakeClient b = FakeClient.handshaken(relay);
        a.sendPacket(b.publicKey(), new byte[FrameType.MAX_PACKET_SIZE]);
        assertEquals(32 + FrameType.MAX_PACKET_SIZE, b.expect(FrameType.RECV_PACKET).payload().length);
    }

    @Test
    void firstFrameOtherThanClientInfoDropsTheClient() throws Exception {
        FakeClient client = FakeClient.connect(server());
        client.send(new Frame(FrameType.PING, new byte[8]));
        assertTrue(client.closed);
    }

    @Test
    void manyClientsBreakingTheProtocolLogAFewLines() throws Exception {
        DerpServer relay = server();
        Logger logger = Logger.getLogger(DerpSession.class.getName());
        List<String> lines = new CopyOnWriteArrayList<>();
        Handler capture = new Handler() {
            @Override
            public void publish(LogRecord record) {
                lines.add(record.getMessage());
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        logger.addHandler(capture);
        try {
            for (int i = 0; i < 40; i++) {
                FakeClient client = FakeClient.connect(relay);
                client.send(new Frame(FrameType.PING, new byte[8]));
                assertTrue(client.closed, "each is still dropped");
            }
        } finally {
            logger.removeHandler(capture);
        }
        assertEquals(RateLimitedLog.DEFAULT_PER_INTERVAL, lines.size(), String.join("\n", lines));
        assertTrue(lines.getLast().contains("further DERP client warnings"), lines.getLast());
    }

    @Test
    void meshFramesWithoutTheMeshKeyDropTheClient() throws Exception {
        FakeClient client = FakeClient.handshaken(server());
        client.send(new Frame(FrameType.WATCH_CONNS, new byte[0]));
        assertTrue(client.closed);
    }

    @Test
    void unknownFrameTypesAreSkipped() throws Exception {
        FakeClient client = FakeClient.handshaken(server());
        client.send(new Frame((byte) 0x7f, new byte[100]));
        client.send(new Frame(FrameType.PING, new byte[8]));
        client.expect(FrameType.PONG);
        assertFalse(client.closed);
    }

    @Test
    void leavingClientIsReportedGoneToPeersItSentTo() throws Exception {
        DerpServer relay = server();
        FakeClient a = FakeClient.handshaken(relay);
        FakeClient b = FakeClient.handshaken(relay);
        FakeClient c = FakeClient.handshaken(relay);
        a.sendPacket(b.publicKey(), new byte[] {1});
        b.expect(FrameType.RECV_PACKET);
        a.session.closed();
        Frame gone = b.expect(FrameType.PEER_GONE);
        assertArrayEquals(a.publicKey().bytes(), Arrays.copyOf(gone.payload(), 32));
        assertEquals(FrameType.PEER_GONE_DISCONNECTED, gone.payload()[32]);
        assertTrue(c.drain().isEmpty());
    }

    @Test
    void discoToAnAbsentPeerIsAnsweredNotHere() throws Exception {
        FakeClient a = FakeClient.handshaken(server());
        NodePublicKey absent = NodePrivateKey.generate().publicKey();
        a.sendPacket(absent, DISCO);
        Frame gone = a.expect(FrameType.PEER_GONE);
        assertArrayEquals(absent.bytes(), Arrays.copyOf(gone.payload(), 32));
        assertEquals(FrameType.PEER_GONE_NOT_HERE, gone.payload()[32]);
        a.sendPacket(absent, new byte[] {1});
        assertTrue(a.drain().isEmpty());
    }

    @Test
    void silentClientIsDroppedAfterTheHandshakeTimeout() throws Exception {
        FakeClient client = FakeClient.connect(server(k -> true, Duration.ofMinutes(1), Duration.ofMillis(100), 32));
        Await.until("the silent client is dropped", () -> client.closed);
    }

    @Test
    void idleClientGetsKeepAlives() throws Exception {
        FakeClient client = FakeClient.handshaken(server(k -> true, Duration.ofMillis(100), Duration.ofSeconds(10), 32));
        client.expect(FrameType.KEEP_ALIVE);
        client.expect(FrameType.KEEP_ALIVE);
        assertFalse(client.closed);
    }

    @Test
    void clientThatStopsReadingIsDropped() throws Exception {
        DerpServer relay = server(k -> true, Duration.ofMillis(100), Duration.ofSeconds(10), 32);
        FakeClient a = FakeClient.handshaken(relay);
        FakeClient b = FakeClient.handshaken(relay);
        b.stalled = true;
        a.sendPacket(b.publicKey(), new byte[] {1});
        Await.until("the client that stopped reading is dropped", () -> b.closed);
        assertFalse(a.closed);
    }
}
