package io.meshcontrol.relay.derp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import io.meshcontrol.core.crypto.NaclBox;
import io.meshcontrol.core.key.NodePrivateKey;
import io.meshcontrol.core.key.NodePublicKey;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/** A DERP client driving a session directly: frames in as bytes, frames out pulled like a transport would. */
final class FakeClient implements DerpTransport {

    final NodePrivateKey key = NodePrivateKey.generate();
    final LinkedBlockingQueue<Frame> received = new LinkedBlockingQueue<>();
    volatile boolean closed;
    private final FrameDecoder decoder = new FrameDecoder(type -> Integer.MAX_VALUE);
    DerpSession session;

    static FakeClient connect(DerpServer server) {
        FakeClient client = new FakeClient();
        client.session = server.accept(client);
        client.session.start();
        return client;
    }

    /** Connects and completes the handshake; returns the client. */
    static FakeClient handshaken(DerpServer server) throws Exception {
        FakeClient client = connect(server);
        client.expect(FrameType.SERVER_KEY);
        client.sendClientInfo(server.publicKey());
        Frame info = client.expect(FrameType.SERVER_INFO);
        byte[] nonce = Arrays.copyOf(info.payload(), NaclBox.NONCE_LENGTH);
        byte[] json = NaclBox.open(Arrays.copyOfRange(info.payload(), NaclBox.NONCE_LENGTH, info.payload().length),
                nonce, server.publicKey().bytes(), client.key.bytes());
        assertEquals("{\"version\":2}", new String(json, StandardCharsets.UTF_8));
        return client;
    }

    NodePublicKey publicKey() {
        return key.publicKey();
    }

    void sendClientInfo(NodePublicKey serverKey) throws Exception {
        sendClientInfo(serverKey, "{\"version\":2,\"CanAckPings\":true}");
    }

    /** A ClientInfo with this JSON (a mesh peer's carries {@code meshKey}). */
    void sendClientInfo(NodePublicKey serverKey, String clientInfoJson) throws Exception {
        byte[] nonce = new byte[NaclBox.NONCE_LENGTH];
        nonce[0] = 7;
        byte[] box = NaclBox.seal(clientInfoJson.getBytes(StandardCharsets.UTF_8), nonce,
                serverKey.bytes(), key.bytes());
        send(Frame.of(FrameType.CLIENT_INFO, publicKey().bytes(), nonce, box));
    }

    void send(Frame frame) {
        send(frame.encode());
    }

    void send(byte[] bytes) {
        session.received(ByteBuffer.wrap(bytes));
    }

    void sendPacket(NodePublicKey to, byte[] packet) {
        send(Frame.of(FrameType.SEND_PACKET, to.bytes(), packet));
    }

    Frame next() throws InterruptedException {
        Frame frame = received.poll(5, TimeUnit.SECONDS);
        if (frame == null) {
            fail("no frame arrived");
        }
        return frame;
    }

    /** The next frame that is not a keep-alive, checked to be of {@code type}. */
    Frame expect(byte type) throws InterruptedException {
        Frame frame = next();
        while (frame.type() == FrameType.KEEP_ALIVE && type != FrameType.KEEP_ALIVE) {
            frame = next();
        }
        assertEquals(type, frame.type(), "frame type");
        return frame;
    }

    List<Frame> drain() {
        List<Frame> frames = new ArrayList<>();
        received.drainTo(frames);
        return frames;
    }

    /** Stops pulling frames, like a client that stopped reading. */
    volatile boolean stalled;

    @Override
    public synchronized void writeReady() {
        if (stalled) {
            return;
        }
        byte[] frame;
        while ((frame = session.nextFrame()) != null) {
            try {
                decoder.decode(ByteBuffer.wrap(frame), received::add);
            } catch (DerpProtocolException e) {
                throw new AssertionError(e);
            }
        }
    }

    @Override
    public void close() {
        closed = true;
    }

    @Override
    public SocketAddress remoteAddress() {
        return new InetSocketAddress("192.0.2.1", 40000);
    }
}
