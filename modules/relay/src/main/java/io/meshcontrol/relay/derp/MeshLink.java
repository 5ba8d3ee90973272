package io.meshcontrol.relay.derp;

import io.meshcontrol.core.crypto.NaclBox;
import io.meshcontrol.core.key.NodePublicKey;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.System.Logger.Level;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.SSLSocketFactory;

/**
 * This relay's connection to another relay of the region, as {@code derper --mesh-with} keeps one: a DERP client
 * that signs in with this relay's key and the region's mesh key, asks to watch connections, and so learns which
 * clients the other relay has. It is the {@link PacketForwarder} for those clients: packets for them go over this
 * connection as ForwardPacket frames. The other relay forwards to ours over its own link, the same way.
 *
 * <p>The connection is blocking I/O on two virtual threads (reader and writer); {@link #forward} only queues. When it
 * breaks, every client it reported is forgotten and it dials again, after half a second at first and then doubling up
 * to {@code retry} (Go's client waits 5 s each time; a restarting instance is back sooner). A
 * link that reaches this relay itself (a list naming every relay of the region, this one too) stops quietly.
 */
public final class MeshLink implements PacketForwarder, AutoCloseable {

    private static final System.Logger LOG = System.getLogger(MeshLink.class.getName());
    /** Packets waiting for the other relay; beyond this the newest are dropped, as a full client queue drops. */
    private static final int QUEUE_DEPTH = 4096;
    /** The other relay sends a keep-alive every minute; two missed mean the link is dead. */
    private static final int READ_TIMEOUT_MS = 130_000;
    private static final int CONNECT_TIMEOUT_MS = 5_000;

    private final DerpServer server;
    private final URI peer;
    private final Duration retry;
    private final SSLSocketFactory tls;
    private final BlockingQueue<byte[]> outgoing = new ArrayBlockingQueue<>(QUEUE_DEPTH);
    private volatile boolean connected;
    private volatile boolean closed;
    private volatile boolean self;
    private volatile Socket socket;
    private volatile Thread loop;

    /**
     * @param peer the other relay's base URL ({@code https://relay-b.example.com} or {@code http://10.0.0.2:8080});
     *             {@code /derp} is dialled on it
     * @param tls the TLS client for {@code https} peers
     */
    public MeshLink(DerpServer server, URI peer, Duration retry, SSLSocketFactory tls) {
        if (server.meshKey().isEmpty()) {
            throw new IllegalArgumentException("a mesh link needs the relay's mesh key");
        }
        this.server = server;
        this.peer = peer;
        this.retry = retry;
        this.tls = tls;
    }

    public void start() {
        loop = Thread.ofVirtual().name("derp-mesh " + peer).start(this::run);
    }

    /** The relay dialled, as configured. */
    public URI peer() {
        return peer;
    }

    /** Whether the link is up (handshake done, watching). */
    public boolean connected() {
        return connected;
    }

    /** Whether the link found itself talking to this relay and stopped. */
    public boolean isSelf() {
        return self;
    }

    @Override
    public boolean forward(NodePublicKey source, NodePublicKey destination, byte[] packet) {
        if (!connected) {
            return false;
        }
        return outgoing.offer(Frame.of(FrameType.FORWARD_PACKET, source.bytes(), destination.bytes(), packet).encode());
    }

    private void run() {
        // A peer that is restarting is back within seconds: the first attempts come sooner than {@code retry}.
        Duration wait = Duration.ofMillis(Math.min(500, retry.toMillis()));
        while (!closed) {
            try (Socket s = dial()) {
                socket = s;
                session(s);
            } catch (IOException | DerpProtocolException e) {
                if (!closed) {
                    Duration next = wait;
                    server.warnings().warn("DERP mesh " + peer, () -> "DERP mesh link to " + peer + ": "
                            + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage())
                            + "; dialling again in " + next.toMillis() + " ms");
                }
            } finally {
                if (connected) {
                    wait = Duration.ofMillis(Math.min(500, retry.toMillis()));
                }
                connected = false;
                outgoing.clear();
                server.removeForwarder(this);
            }
            if (self || closed) {
                return;
            }
            try {
                Thread.sleep(wait);
            } catch (InterruptedException e) {
                return;
            }
            wait = wait.multipliedBy(2).compareTo(retry) > 0 ? retry : wait.multipliedBy(2);
        }
    }

    private Socket dial() throws IOException {
        boolean https = "https".equalsIgnoreCase(peer.getScheme());
        int port = peer.getPort() > 0 ? peer.getPort() : https ? 443 : 80;
        Socket plain = new Socket();
        plain.connect(new InetSocketAddress(peer.getHost(), port), CONNECT_TIMEOUT_MS);
        if (!https) {
            return plain;
        }
        SSLSocket secure = (SSLSocket) tls.createSocket(plain, peer.getHost(), port, true);
        var parameters = secure.getSSLParameters();
        parameters.setEndpointIdentificationAlgorithm("HTTPS");
        secure.setSSLParameters(parameters);
        secure.startHandshake();
        return secure;
    }

    private void session(Socket s) throws IOException, DerpProtocolException {
        s.setSoTimeout(READ_TIMEOUT_MS);
        s.setTcpNoDelay(true);
        OutputStream out = new BufferedOutputStream(s.getOutputStream());
        DataInputStream in = new DataInputStream(new BufferedInputStream(s.getInputStream()));
        String host = peer.getPort() > 0 ? peer.getHost() + ":" + peer.getPort() : peer.getHost();
        out.write(("GET /derp HTTP/1.1\r\nHost: " + host + "\r\nUpgrade: DERP\r\nConnection: Upgrade\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII));
        out.flush();
        String head = responseHead(in);
        if (!head.startsWith("HTTP/1.1 101")) {
            throw new DerpProtocolException("the relay answered " + head.lines().findFirst().orElse("nothing")
                    + " to the DERP upgrade");
        }
        Frame serverKey = read(in);
        if (serverKey.type() != FrameType.SERVER_KEY || serverKey.payload().length < 8 + FrameType.KEY_LENGTH) {
            throw new DerpProtocolException("the first frame is not ServerKey");
        }
        byte[] peerKey = Arrays.copyOfRange(serverKey.payload(), 8, 8 + FrameType.KEY_LENGTH);
        if (Arrays.equals(peerKey, server.publicKey().bytes())) {
            self = true;
            LOG.log(Level.DEBUG, "DERP mesh link " + peer + " reaches this relay itself; not used");
            return;
        }
        out.write(clientInfo(peerKey).encode());
        out.write(new Frame(FrameType.WATCH_CONNS, new byte[0]).encode());
        out.flush();
        Thread writer = Thread.ofVirtual().name("derp-mesh-writer " + peer).start(() -> write(out, s));
        try {
            frames(in);
        } finally {
            writer.interrupt();
        }
    }

    private Frame clientInfo(byte[] peerKey) throws DerpProtocolException {
        String json = "{\"version\":" + FrameType.PROTOCOL_VERSION + ",\"meshKey\":\""
                + server.meshKey().orElseThrow().toHex() + "\"}";
        byte[] nonce = server.nonce();
        try {
            byte[] box = NaclBox.seal(json.getBytes(StandardCharsets.UTF_8), nonce, peerKey, server.privateKeyBytes());
            return Frame.of(FrameType.CLIENT_INFO, server.publicKey().bytes(), nonce, box);
        } catch (InvalidKeyException e) {
            throw new DerpProtocolException("the relay's key is a low-order point");
        }
    }

    private void frames(DataInputStream in) throws IOException, DerpProtocolException {
        while (!closed) {
            Frame frame = read(in);
            byte[] p = frame.payload();
            switch (frame.type()) {
                case FrameType.SERVER_INFO -> {
                    connected = true;
                    LOG.log(Level.INFO, "DERP mesh link to " + peer + " is up");
                }
                case FrameType.PEER_PRESENT -> {
                    if (p.length >= FrameType.KEY_LENGTH) {
                        server.addForwarder(key(p), this);
                    }
                }
                case FrameType.PEER_GONE -> {
                    if (p.length >= FrameType.KEY_LENGTH) {
                        server.removeForwarder(key(p), this);
                    }
                }
                case FrameType.PING -> {
                    if (p.length >= FrameType.PING_LENGTH) {
                        outgoing.offer(Frame.of(FrameType.PONG, Arrays.copyOf(p, FrameType.PING_LENGTH)).encode());
                    }
                }
                default -> {
                    // Keep-alives, health and anything newer: nothing to do.
                }
            }
        }
    }

    private static NodePublicKey key(byte[] payload) {
        return NodePublicKey.fromRaw(Arrays.copyOf(payload, FrameType.KEY_LENGTH));
    }

    /** Writes queued frames, flushing whenever the queue runs dry; ends with the connection. */
    private void write(OutputStream out, Socket s) {
        try {
            while (!s.isClosed()) {
                byte[] frame = outgoing.poll(1, TimeUnit.SECONDS);
                if (frame == null) {
                    continue;
                }
                out.write(frame);
                while ((frame = outgoing.poll()) != null) {
                    out.write(frame);
                }
                out.flush();
            }
        } catch (IOException | InterruptedException e) {
            closeQuietly(s);
        }
    }

    private static String responseHead(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        while (head.size() < 8192) {
            int b = in.read();
            if (b < 0) {
                throw new EOFException("the relay closed the connection during the upgrade");
            }
            head.write(b);
            if (head.size() >= 4 && head.toString(StandardCharsets.US_ASCII).endsWith("\r\n\r\n")) {
                return head.toString(StandardCharsets.US_ASCII);
            }
        }
        throw new IOException("the relay's upgrade response head is longer than 8 KiB");
    }

    private static Frame read(DataInputStream in) throws IOException, DerpProtocolException {
        byte type = in.readByte();
        int length = in.readInt();
        if (length < 0 || length > FrameType.MAX_FRAME_LENGTH) {
            throw new DerpProtocolException("frame 0x" + Integer.toHexString(type & 0xff) + " of " + length
                    + " bytes");
        }
        byte[] payload = new byte[length];
        in.readFully(payload);
        return new Frame(type, payload);
    }

    private static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException ignored) {
            // closing anyway
        }
    }

    @Override
    public void close() {
        closed = true;
        Socket s = socket;
        if (s != null) {
            closeQuietly(s);
        }
        Thread t = loop;
        if (t != null) {
            t.interrupt();
        }
    }
}
