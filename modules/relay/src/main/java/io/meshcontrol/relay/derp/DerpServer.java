package io.meshcontrol.relay.derp;

import io.meshcontrol.core.RateLimitedLog;
import io.meshcontrol.core.key.NodePrivateKey;
import io.meshcontrol.core.key.NodePublicKey;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.List;
import java.util.Map;
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
        this(privateKey, admission, DEFAULT_KEEP_ALIVE, DEFAULT_HANDSHAKE_TIMEOUT, SendQueue.DEFAULT_DEPTH);
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
    }

    void noteActive(NodePublicKey key, DerpSession session) {
        if (clients.get(key) != session) {
            clients.put(key, session);
        }
    }

    void unregister(NodePublicKey key, DerpSession session) {
        clients.remove(key, session);
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
