package io.meshcontrol.relay.derp;

import io.meshcontrol.core.RateLimitedLog;
import io.meshcontrol.core.key.NodePrivateKey;
import io.meshcontrol.core.key.NodePublicKey;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import tools.jackson.databind.json.JsonMapper;

/**
 * The relay: which node key is connected on which session, and the policy around it (who may connect, queue depth,
 * timers). Transports create a session per connection with {@link #accept}; the frame protocol itself lives in
 * {@link DerpSession}.
 *
 * <p>With a {@link MeshKey} it is one relay of a region of several ({@code derper --mesh-with}): a client presenting
 * the key is another relay, which may watch who connects here (PeerPresent and PeerGone frames) and forward packets
 * for clients connected here (ForwardPacket). Packets for a client connected to another relay of the region go to
 * that relay's {@link PacketForwarder}, which {@link MeshLink} registers as it hears the client is present there.
 */
public final class DerpServer implements AutoCloseable {

    /** Tailscale's server sends a keep-alive every 60 s plus up to 5 s of jitter; clients give up after 120 s. */
    public static final Duration DEFAULT_KEEP_ALIVE = Duration.ofSeconds(60);
    /** A client must send ClientInfo this soon after connecting. */
    public static final Duration DEFAULT_HANDSHAKE_TIMEOUT = Duration.ofSeconds(10);

    private final NodePrivateKey privateKey;
    private final NodePublicKey publicKey;
    private final Predicate<NodePublicKey> admission;
    private final Duration keepAliveInterval;
    private final Duration handshakeTimeout;
    private final int queueDepth;
    private final Map<NodePublicKey, DerpSession> clients = new ConcurrentHashMap<>();
    private final MeshKey meshKey;
    /** Mesh peers that asked to watch connections: they hear of every client that comes and goes. */
    private final Set<DerpSession> watchers = ConcurrentHashMap.newKeySet();
    /**
     * Clients of other relays of the region, by key, with the links that reach them; the first is used. Usually
     * one: a client is connected to one relay at a time, two while it moves.
     */
    private final Map<NodePublicKey, List<PacketForwarder>> forwarders = new ConcurrentHashMap<>();
    private final ScheduledExecutorService timers;
    private final SecureRandom random = new SecureRandom();
    private final JsonMapper json = JsonMapper.builder().build();
    private final RelayStats stats = new RelayStats();
    /** Dropped clients are logged a few lines a minute: a client can break the protocol on purpose, many times. */
    private final RateLimitedLog warnings = new RateLimitedLog(System.getLogger(DerpSession.class.getName()));

    /**
     * @param admission which node keys may use the relay ({@code verify_clients}); a refused client is closed after
     *                  its ClientInfo, before ServerInfo, as Tailscale's server does
     */
    public DerpServer(NodePrivateKey privateKey, Predicate<NodePublicKey> admission, Duration keepAliveInterval,
            Duration handshakeTimeout, int queueDepth) {
        this(privateKey, admission, keepAliveInterval, handshakeTimeout, queueDepth, null);
    }

    /** @param meshKey the region's shared secret, or null for a relay that meshes with no other */
    public DerpServer(NodePrivateKey privateKey, Predicate<NodePublicKey> admission, Duration keepAliveInterval,
            Duration handshakeTimeout, int queueDepth, MeshKey meshKey) {
        this.meshKey = meshKey;
        this.privateKey = privateKey;
        this.publicKey = privateKey.publicKey();
        this.admission = admission;
        this.keepAliveInterval = keepAliveInterval;
        this.handshakeTimeout = handshakeTimeout;
        this.queueDepth = queueDepth;
        this.timers = Executors.newSingleThreadScheduledExecutor(Thread.ofPlatform().daemon().name("derp-timers")
                .factory());
    }

    public DerpServer(NodePrivateKey privateKey, Predicate<NodePublicKey> admission) {
        this(privateKey, admission, DEFAULT_KEEP_ALIVE, DEFAULT_HANDSHAKE_TIMEOUT, SendQueue.DEFAULT_DEPTH, null);
    }

    public DerpServer(NodePrivateKey privateKey, Predicate<NodePublicKey> admission, MeshKey meshKey) {
        this(privateKey, admission, DEFAULT_KEEP_ALIVE, DEFAULT_HANDSHAKE_TIMEOUT, SendQueue.DEFAULT_DEPTH, meshKey);
    }

    /** The region's shared secret, if this relay meshes. */
    public Optional<MeshKey> meshKey() {
        return Optional.ofNullable(meshKey);
    }

    /** Whether a ClientInfo's {@code meshKey} makes its sender a mesh peer. */
    boolean isMeshPeer(String presentedKey) {
        return meshKey != null && meshKey.matches(presentedKey);
    }

    /** Another relay's client became reachable through {@code forwarder}. */
    public void addForwarder(NodePublicKey key, PacketForwarder forwarder) {
        forwarders.compute(key, (k, list) -> {
            List<PacketForwarder> next = list == null ? new ArrayList<>() : new ArrayList<>(list);
            if (!next.contains(forwarder)) {
                next.add(forwarder);
            }
            return List.copyOf(next);
        });
    }

    /**
     * Another relay's client is no longer reachable through {@code forwarder}. When no relay of the region has it
     * any more (and it is not connected here), the local clients that sent to it hear PeerGone, as from a local peer.
     */
    public void removeForwarder(NodePublicKey key, PacketForwarder forwarder) {
        List<PacketForwarder> left = forwarders.computeIfPresent(key, (k, list) -> {
            List<PacketForwarder> next = new ArrayList<>(list);
            next.remove(forwarder);
            return next.isEmpty() ? null : List.copyOf(next);
        });
        if (left == null && !clients.containsKey(key)) {
            for (DerpSession session : clients.values()) {
                if (session.sentTo(key)) {
                    peerGone(session.clientKey(), key);
                }
            }
        }
    }

    /** Drops every forwarder of {@code forwarder} (its link broke); returns how many keys it reached. */
    public int removeForwarder(PacketForwarder forwarder) {
        int removed = 0;
        for (Map.Entry<NodePublicKey, List<PacketForwarder>> entry : forwarders.entrySet()) {
            if (entry.getValue().contains(forwarder)) {
                removeForwarder(entry.getKey(), forwarder);
                removed++;
            }
        }
        return removed;
    }

    /** The link to the relay that has {@code key}, or null. */
    PacketForwarder forwarder(NodePublicKey key) {
        List<PacketForwarder> list = forwarders.get(key);
        return list == null ? null : list.getFirst();
    }

    /** Whether a packet for {@code key} has somewhere to go: a client here, or one another relay of the region has. */
    public boolean reaches(NodePublicKey key) {
        return clients.containsKey(key) || forwarders.containsKey(key);
    }

    /** How many keys other relays of the region reported connected (for tests and the debug page). */
    public int meshClientCount() {
        return forwarders.size();
    }

    /** A mesh peer watches connections: it first hears of every client connected now, then of each change. */
    void addWatcher(DerpSession watcher) {
        if (publicKey.equals(watcher.clientKey())) {
            return; // our own mesh link dialled ourselves
        }
        watchers.add(watcher);
        for (DerpSession session : clients.values()) {
            watcher.enqueueControl(peerPresent(session));
        }
    }

    void removeWatcher(DerpSession watcher) {
        watchers.remove(watcher);
    }

    /**
     * PeerPresent: the key, the client's address as 16 bytes (IPv4 mapped) and a big-endian port, then flags
     * (1 a regular client, 2 a mesh peer), as Go's server has sent since its flags byte was added.
     */
    private static Frame peerPresent(DerpSession session) {
        ByteBuffer address = ByteBuffer.allocate(18);
        SocketAddress remote = session.remoteAddress();
        if (remote instanceof InetSocketAddress inet && inet.getAddress() != null) {
            byte[] raw = inet.getAddress().getAddress();
            if (raw.length == 4) {
                address.put(10, (byte) 0xff).put(11, (byte) 0xff).put(12, raw[0]).put(13, raw[1]).put(14, raw[2])
                        .put(15, raw[3]);
            } else {
                address.put(0, raw);
            }
            address.putShort(16, (short) inet.getPort());
        }
        byte flags = session.canMesh() ? (byte) 2 : (byte) 1;
        return Frame.of(FrameType.PEER_PRESENT, session.clientKey().bytes(), address.array(), new byte[] {flags});
    }

    /**
     * A new connection. Once the transport holds the session it calls {@link DerpSession#start}, which queues the
     * server key and asks the transport to write it.
     */
    public DerpSession accept(DerpTransport transport) {
        return new DerpSession(this, transport, queueDepth);
    }

    public NodePublicKey publicKey() {
        return publicKey;
    }

    RateLimitedLog warnings() {
        return warnings;
    }

    public RelayStats stats() {
        return stats;
    }

    /** How many keys are connected (handshake done). */
    public int clientCount() {
        return clients.size();
    }

    /** The sessions of connected (handshaken) clients. */
    public List<DerpSession> clients() {
        return List.copyOf(clients.values());
    }

    /** Drops every connected client this predicate selects, e.g. after verification was turned on. */
    public void dropClients(Predicate<NodePublicKey> which, String reason) {
        clients.forEach((key, session) -> {
            if (which.test(key)) {
                session.drop(reason);
            }
        });
    }

    @Override
    public void close() {
        for (DerpSession session : clients.values()) {
            session.end();
        }
        timers.shutdownNow();
    }

    boolean admits(NodePublicKey key) {
        boolean ok = admission.test(key);
        if (!ok) {
            stats.refusedClients.increment();
        }
        return ok;
    }

    /**
     * A second connection with the same key takes over delivery; the first stays open and takes delivery back when it
     * sends (Go's "last writer is active"), so two processes with one key do not fight by reconnecting.
     */
    void register(NodePublicKey key, DerpSession session) {
        clients.put(key, session);
        for (DerpSession watcher : watchers) {
            watcher.enqueueControl(peerPresent(session));
        }
    }

    void noteActive(NodePublicKey key, DerpSession session) {
        if (clients.get(key) != session) {
            clients.put(key, session);
        }
    }

    void unregister(NodePublicKey key, DerpSession session) {
        watchers.remove(session);
        if (clients.remove(key, session)) {
            Frame gone = Frame.of(FrameType.PEER_GONE, key.bytes(), new byte[] {FrameType.PEER_GONE_DISCONNECTED});
            for (DerpSession watcher : watchers) {
                watcher.enqueueControl(gone);
            }
        }
    }

    DerpSession session(NodePublicKey key) {
        return clients.get(key);
    }

    /** Tells {@code peer}, if connected, that {@code gone} left. */
    void peerGone(NodePublicKey peer, NodePublicKey gone) {
        DerpSession session = clients.get(peer);
        if (session != null) {
            session.enqueueControl(Frame.of(FrameType.PEER_GONE, gone.bytes(),
                    new byte[] {FrameType.PEER_GONE_DISCONNECTED}));
        }
    }

    byte[] privateKeyBytes() {
        return privateKey.bytes();
    }

    byte[] nonce() {
        byte[] nonce = new byte[io.meshcontrol.core.crypto.NaclBox.NONCE_LENGTH];
        random.nextBytes(nonce);
        return nonce;
    }

    JsonMapper json() {
        return json;
    }

    Duration handshakeTimeout() {
        return handshakeTimeout;
    }

    Duration keepAliveInterval() {
        return keepAliveInterval;
    }

    ScheduledFuture<?> schedule(Runnable task, Duration delay) {
        return timers.schedule(task, delay.toNanos(), TimeUnit.NANOSECONDS);
    }

    /** Keep-alive ticks with a little jitter, so clients connected together do not tick together. */
    ScheduledFuture<?> scheduleKeepAlive(Runnable task) {
        long period = keepAliveInterval.toNanos();
        long jitter = ThreadLocalRandom.current().nextLong(Math.max(1, period / 12));
        return timers.scheduleAtFixedRate(task, period + jitter, period, TimeUnit.NANOSECONDS);
    }
}
