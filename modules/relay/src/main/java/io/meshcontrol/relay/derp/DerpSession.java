package io.meshcontrol.relay.derp;

import io.meshcontrol.core.crypto.NaclBox;
import io.meshcontrol.core.key.NodePublicKey;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.time.Instant;
import java.util.Arrays;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/**
 * One client connection: the handshake, then the frames of a connected client. Bytes come in on the transport's
 * thread ({@link #received}); frames for the client queue up from any thread and the transport pulls them
 * ({@link #nextFrame}). Breaking the protocol closes this session only.
 */
public final class DerpSession {

    /** Disco packets start with this magic ("TS" and the speech-balloon emoji); they get their own queue lane. */
    private static final byte[] DISCO_MAGIC = {0x54, 0x53, (byte) 0xf0, (byte) 0x9f, (byte) 0x92, (byte) 0xac};
    /** Go's server answers pings of at most this many bytes and drops clients that send longer ones. */
    private static final int MAX_PING_LENGTH = 1000;

    private final DerpServer server;
    private final DerpTransport transport;
    private final SendQueue queue;
    private final FrameDecoder decoder = new FrameDecoder(this::maxLength);
    /** Peers this client sent packets to: they hear PeerGone when it leaves. */
    private final Set<NodePublicKey> sentTo = ConcurrentHashMap.newKeySet();
    private final PeerGoneLimiter notHereLimiter = new PeerGoneLimiter();
    private volatile NodePublicKey clientKey;
    private volatile boolean preferred;
    /** The client presented the region's mesh key: it is another relay, trusted with the mesh frames. */
    private volatile boolean canMesh;
    /** Set once; the transport's thread and the timer thread may both end a session. */
    private final AtomicBoolean ended = new AtomicBoolean();
    private volatile boolean closed;
    private volatile long framesTaken;
    private long framesTakenAtLastTick;
    private volatile ScheduledFuture<?> timer;
    /** For the debug page: when the connection arrived and the bytes each way. */
    private final Instant connectedAt = Instant.now();
    private final LongAdder bytesReceived = new LongAdder();
    private final LongAdder bytesSent = new LongAdder();

    DerpSession(DerpServer server, DerpTransport transport, int queueDepth) {
        this.server = server;
        this.transport = transport;
        this.queue = new SendQueue(queueDepth);
    }

    /** Sends the server key and starts the handshake clock; the client has {@link DerpServer#handshakeTimeout}. */
    public void start() {
        queue.offerControl(Frame.of(FrameType.SERVER_KEY, FrameType.magic(), server.publicKey().bytes()).encode());
        transport.writeReady();
        timer = server.schedule(() -> {
            if (clientKey == null) {
                drop("no ClientInfo within " + server.handshakeTimeout().toSeconds() + " s");
            }
        }, server.handshakeTimeout());
    }

    /** Bytes from the client, in order, from one thread at a time. */
    public void received(ByteBuffer bytes) {
        if (closed) {
            bytes.position(bytes.limit());
            return;
        }
        bytesReceived.add(bytes.remaining());
        try {
            decoder.decode(bytes, this::handle);
        } catch (DerpProtocolException e) {
            drop(e.getMessage());
        }
    }

    /** The next encoded frame to write, or null when none waits. */
    public byte[] nextFrame() {
        byte[] frame = queue.poll();
        if (frame != null) {
            framesTaken++;
            bytesSent.add(frame.length);
        }
        return frame;
    }

    /** Whether frames wait to be written. */
    public boolean hasQueuedFrames() {
        return !queue.isEmpty();
    }

    /** The connection ended (EOF, error or {@link DerpTransport#close}); idempotent. */
    public void closed() {
        closed = true;
        if (!ended.compareAndSet(false, true)) {
            return;
        }
        ScheduledFuture<?> t = timer;
        if (t != null) {
            t.cancel(false);
        }
        NodePublicKey key = clientKey;
        if (key != null) {
            server.unregister(key, this);
            for (NodePublicKey peer : sentTo) {
                server.peerGone(peer, key);
            }
        }
    }

    public NodePublicKey clientKey() {
        return clientKey;
    }

    /** Whether the client is another relay of the region (it presented the mesh key). */
    public boolean canMesh() {
        return canMesh;
    }

    /** Whether this client sent packets to {@code peer}, which therefore hears PeerGone when it leaves. */
    boolean sentTo(NodePublicKey peer) {
        return sentTo.contains(peer);
    }

    /** Whether the client said this relay is its home. */
    public boolean preferred() {
        return preferred;
    }

    public Instant connectedAt() {
        return connectedAt;
    }

    /** Bytes read from the client, frames and headers. */
    public long bytesReceived() {
        return bytesReceived.sum();
    }

    /** Bytes of frames handed to the transport for the client. */
    public long bytesSent() {
        return bytesSent.sum();
    }

    public java.net.SocketAddress remoteAddress() {
        return transport.remoteAddress();
    }

    private int maxLength(int type) {
        if (clientKey == null) {
            return type == FrameType.CLIENT_INFO ? FrameType.MAX_CLIENT_INFO_LENGTH : 0;
        }
        return FrameType.MAX_FRAME_LENGTH;
    }

    private void handle(Frame frame) throws DerpProtocolException {
        if (clientKey == null) {
            if (frame.type() != FrameType.CLIENT_INFO) {
                throw new DerpProtocolException("first frame is type 0x" + Integer.toHexString(frame.type() & 0xff)
                        + ", not ClientInfo");
            }
            handshake(frame.payload());
            return;
        }
        byte[] p = frame.payload();
        switch (frame.type()) {
            case FrameType.SEND_PACKET -> sendPacket(p);
            case FrameType.NOTE_PREFERRED -> {
                if (p.length < 1) {
                    throw new DerpProtocolException("NotePreferred without its byte");
                }
                preferred = p[0] != 0;
            }
            case FrameType.PING -> {
                if (p.length < FrameType.PING_LENGTH || p.length > MAX_PING_LENGTH) {
                    throw new DerpProtocolException("ping of " + p.length + " bytes");
                }
                enqueueControl(Frame.of(FrameType.PONG, Arrays.copyOf(p, FrameType.PING_LENGTH)));
            }
            case FrameType.PONG -> {
                // The server never pings; an unsolicited pong is harmless.
            }
            // Mesh frames need the mesh key: Go's server drops clients that send them without it too.
            case FrameType.WATCH_CONNS, FrameType.CLOSE_PEER, FrameType.FORWARD_PACKET -> meshFrame(frame);
            default -> {
                // Unknown frames are skipped so that newer clients keep working.
            }
        }
    }

    private void meshFrame(Frame frame) throws DerpProtocolException {
        if (!canMesh) {
            throw new DerpProtocolException("mesh frame 0x" + Integer.toHexString(frame.type())
                    + " without the mesh key");
        }
        byte[] p = frame.payload();
        switch (frame.type()) {
            case FrameType.WATCH_CONNS -> {
                if (p.length != 0) {
                    throw new DerpProtocolException("WatchConns with a payload of " + p.length + " bytes");
                }
                server.addWatcher(this);
            }
            case FrameType.CLOSE_PEER -> {
                if (p.length != FrameType.KEY_LENGTH) {
                    throw new DerpProtocolException("ClosePeer of " + p.length + " bytes");
                }
                server.dropClients(NodePublicKey.fromRaw(p)::equals, "closed by mesh peer " + clientKey.toText());
            }
            default -> forwardedPacket(p);
        }
    }

    /** A packet another relay of the region sends on for one of our clients; it is never forwarded again. */
    private void forwardedPacket(byte[] p) throws DerpProtocolException {
        if (p.length < 2 * FrameType.KEY_LENGTH) {
            throw new DerpProtocolException("ForwardPacket of " + p.length + " bytes has no keys");
        }
        if (p.length - 2 * FrameType.KEY_LENGTH > FrameType.MAX_PACKET_SIZE) {
            throw new DerpProtocolException("forwarded packet of " + (p.length - 2 * FrameType.KEY_LENGTH) + " bytes");
        }
        server.stats().forwardedFromMesh.increment();
        byte[] source = Arrays.copyOf(p, FrameType.KEY_LENGTH);
        NodePublicKey destination = NodePublicKey.fromRaw(
                Arrays.copyOfRange(p, FrameType.KEY_LENGTH, 2 * FrameType.KEY_LENGTH));
        byte[] packet = Arrays.copyOfRange(p, 2 * FrameType.KEY_LENGTH, p.length);
        DerpSession target = server.session(destination);
        if (target == null) {
            // Not here (any more): dropped, not sent on, so two relays with stale views cannot bounce it between them.
            server.stats().droppedUnknownDestination.increment();
            return;
        }
        target.deliver(Frame.of(FrameType.RECV_PACKET, source, packet).encode(), isDisco(packet));
    }

    private void handshake(byte[] p) throws DerpProtocolException {
        int headerLength = FrameType.KEY_LENGTH + NaclBox.NONCE_LENGTH;
        if (p.length < headerLength) {
            throw new DerpProtocolException("ClientInfo of " + p.length + " bytes is too short");
        }
        NodePublicKey key = NodePublicKey.fromRaw(Arrays.copyOf(p, FrameType.KEY_LENGTH));
        byte[] nonce = Arrays.copyOfRange(p, FrameType.KEY_LENGTH, headerLength);
        byte[] json;
        try {
            json = NaclBox.open(Arrays.copyOfRange(p, headerLength, p.length), nonce, key.bytes(),
                    server.privateKeyBytes());
        } catch (InvalidKeyException e) {
            throw new DerpProtocolException("ClientInfo from " + key.toText() + " does not open: " + e.getMessage());
        }
        JsonNode info;
        try {
            info = server.json().readTree(json);
        } catch (JacksonException e) {
            throw new DerpProtocolException("ClientInfo from " + key.toText() + " is not JSON");
        }
        if (!info.isObject()) {
            throw new DerpProtocolException("ClientInfo from " + key.toText() + " is not a JSON object");
        }
        JsonNode presented = info.get("meshKey");
        // A mesh peer is a relay, not a node of the network: verification would refuse it (as in Go's server).
        canMesh = presented != null && presented.isString() && server.isMeshPeer(presented.asString());
        if (!canMesh && !server.admits(key)) {
            throw new DerpProtocolException("client " + key.toText() + " is not a node of this network");
        }
        clientKey = key;
        server.register(key, this);
        byte[] serverNonce = server.nonce();
        byte[] box;
        try {
            box = NaclBox.seal(("{\"version\":" + FrameType.PROTOCOL_VERSION + "}").getBytes(StandardCharsets.UTF_8),
                    serverNonce, key.bytes(), server.privateKeyBytes());
        } catch (InvalidKeyException e) {
            throw new DerpProtocolException("client key " + key.toText() + " is a low-order point");
        }
        enqueueControl(Frame.of(FrameType.SERVER_INFO, serverNonce, box));
        ScheduledFuture<?> handshakeTimer = timer;
        if (handshakeTimer != null) {
            handshakeTimer.cancel(false);
        }
        timer = server.scheduleKeepAlive(this::tick);
    }

    private void sendPacket(byte[] p) throws DerpProtocolException {
        if (p.length < FrameType.KEY_LENGTH) {
            throw new DerpProtocolException("SendPacket of " + p.length + " bytes has no destination");
        }
        if (p.length - FrameType.KEY_LENGTH > FrameType.MAX_PACKET_SIZE) {
            throw new DerpProtocolException("packet of " + (p.length - FrameType.KEY_LENGTH) + " bytes");
        }
        NodePublicKey destination = NodePublicKey.fromRaw(Arrays.copyOf(p, FrameType.KEY_LENGTH));
        server.noteActive(clientKey, this);
        byte[] packet = Arrays.copyOfRange(p, FrameType.KEY_LENGTH, p.length);
        boolean disco = isDisco(packet);
        DerpSession target = server.session(destination);
        if (target == null) {
            PacketForwarder forwarder = server.forwarder(destination);
            if (forwarder != null) {
                sentTo.add(destination);
                if (forwarder.forward(clientKey, destination, packet)) {
                    server.stats().forwardedToMesh.increment();
                }
                return;
            }
            server.stats().droppedUnknownDestination.increment();
            // Tell the sender its disco probes go nowhere, so it stops using this relay for that peer; a few a second.
            if (disco && notHereLimiter.allow(System.nanoTime())) {
                enqueueControl(Frame.of(FrameType.PEER_GONE, destination.bytes(),
                        new byte[] {FrameType.PEER_GONE_NOT_HERE}));
            }
            return;
        }
        sentTo.add(destination);
        target.deliver(Frame.of(FrameType.RECV_PACKET, clientKey.bytes(), packet).encode(), disco);
    }

    void deliver(byte[] frame, boolean disco) {
        if (closed) {
            return;
        }
        server.stats().forwarded.increment();
        if (!queue.offerPacket(frame, disco)) {
            server.stats().droppedQueueHead.increment();
        }
        transport.writeReady();
    }

    void enqueueControl(Frame frame) {
        if (closed) {
            return;
        }
        queue.offerControl(frame.encode());
        transport.writeReady();
    }

    /**
     * Every keep-alive interval: a keep-alive frame, so the client's 120 s read deadline never expires on an idle
     * relay; and a client that took nothing from a non-empty queue for a whole interval has stopped reading: it is
     * dropped, so it holds no memory and no one waits for it.
     */
    private void tick() {
        long taken = framesTaken;
        if (taken == framesTakenAtLastTick && !queue.isEmpty()) {
            drop("reads nothing: no frame written for " + server.keepAliveInterval().toSeconds() + " s");
            return;
        }
        framesTakenAtLastTick = taken;
        enqueueControl(new Frame(FrameType.KEEP_ALIVE, new byte[0]));
    }

    /** Ends the session without a warning, for a relay that is stopping. */
    void end() {
        transport.close();
        closed();
    }

    void drop(String reason) {
        if (!ended.get()) {
            server.warnings().warn("DERP client", () -> "DERP client " + describe() + " dropped: " + reason);
        }
        transport.close();
        closed();
    }

    private String describe() {
        NodePublicKey key = clientKey;
        return transport.remoteAddress() + (key == null ? "" : " (" + key.toText() + ")");
    }

    static boolean isDisco(byte[] packet) {
        return packet.length >= DISCO_MAGIC.length
                && Arrays.equals(packet, 0, DISCO_MAGIC.length, DISCO_MAGIC, 0, DISCO_MAGIC.length);
    }

    long dropped() {
        return queue.dropped();
    }

    /** A token bucket for PeerGone(NotHere): one a second, bursts of three, as Go's server allows. */
    private static final class PeerGoneLimiter {
        private static final long INTERVAL = 1_000_000_000L;
        private static final int BURST = 3;
        private double tokens = BURST;
        private long last = System.nanoTime();

        synchronized boolean allow(long now) {
            tokens = Math.min(BURST, tokens + (now - last) / (double) INTERVAL);
            last = now;
            if (tokens >= 1) {
                tokens -= 1;
                return true;
            }
            return false;
        }
    }
}
