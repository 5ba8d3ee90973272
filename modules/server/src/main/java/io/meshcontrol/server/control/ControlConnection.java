package io.meshcontrol.server.control;

import io.meshcontrol.core.RateLimitedLog;
import io.meshcontrol.core.crypto.NoiseProtocolException;
import io.meshcontrol.core.key.ChallengePrivateKey;
import io.meshcontrol.core.key.MachinePublicKey;
import io.undertow.server.HttpServerExchange;
import io.undertow.util.AttachmentKey;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One established ts2021 connection, as the {@code /machine/*} handlers see it. Every request on the connection comes
 * from the same machine, proven by the Noise handshake, so handlers bind what they do to {@link #machineKey()} rather
 * than to anything the request body claims.
 *
 * <p>Get it with {@link #of(HttpServerExchange)}.
 */
public final class ControlConnection {

    static final AttachmentKey<ControlConnection> ATTACHMENT = AttachmentKey.create(ControlConnection.class);


    private final MachinePublicKey machineKey;
    private final int protocolVersion;
    private final ChallengePrivateKey nodeKeyChallenge;
    private final SocketAddress peerAddress;
    private final Instant established;
    private final AtomicBoolean problemReported = new AtomicBoolean();
    private final RateLimitedLog warnings;
    private final Executor ioTasks;

    /**
     * @param warnings where the connection's one problem line goes, rate-limited across all connections
     * @param ioTasks  the connection's I/O thread, for tasks from other threads
     */
    ControlConnection(MachinePublicKey machineKey, int protocolVersion, ChallengePrivateKey nodeKeyChallenge,
            SocketAddress peerAddress, Instant established, RateLimitedLog warnings, Executor ioTasks) {
        this.warnings = warnings;
        this.ioTasks = ioTasks;
        this.machineKey = machineKey;
        this.protocolVersion = protocolVersion;
        this.nodeKeyChallenge = nodeKeyChallenge;
        this.peerAddress = peerAddress;
        this.established = established;
    }

    /**
     * The connection an exchange arrived on.
     *
     * @throws IllegalStateException when the exchange did not come over ts2021 (a handler registered in the wrong
     *                               place)
     */
    public static ControlConnection of(HttpServerExchange exchange) {
        // Attached to the HTTP/2 channel; every exchange's connection object hands out the channel's attachments.
        ControlConnection connection = exchange.getConnection().getAttachment(ATTACHMENT);
        if (connection == null) {
            throw new IllegalStateException(exchange.getRequestPath() + " did not arrive over a ts2021 connection");
        }
        return connection;
    }

    /**
     * Runs tasks on the connection's I/O thread, where its channels may be written without waiting; a batch of tasks
     * from many threads costs one hand-over ({@link IoThreadTasks}).
     */
    Executor ioTasks() {
        return ioTasks;
    }

    /** The client's machine key, which the client proved it holds during the handshake. */
    public MachinePublicKey machineKey() {
        return machineKey;
    }

    /**
     * The client's protocol version: its capability version ({@code tailcfg.CurrentCapabilityVersion}) from the
     * handshake initiation. The handshake authenticated it, so it can be trusted like the machine key.
     */
    public int protocolVersion() {
        return protocolVersion;
    }

    /**
     * The private half of the challenge key sent in this connection's early payload, for checking a client's proof
     * that it holds a node key. Empty for clients older than protocol version 49, which get no early payload.
     */
    public Optional<ChallengePrivateKey> nodeKeyChallenge() {
        return Optional.ofNullable(nodeKeyChallenge);
    }

    /** The client's address as this server saw it (a proxy's address when there is one in front). */
    public SocketAddress peerAddress() {
        return peerAddress;
    }

    /** When the handshake completed. */
    public Instant established() {
        return established;
    }

    /**
     * Logs that the client broke the protocol on this connection: one line with the problem and the peer, however
     * many reads then fail on the dead connection and whichever layer notices first; and at most a few such lines
     * a minute however many clients break it.
     */
    void reportProblem(String problem) {
        if (problemReported.compareAndSet(false, true)) {
            warnings.warn("ts2021 connection", () -> "ts2021 connection from " + describe(peerAddress) + " ("
                    + machineKey.toText() + ") closed: " + problem);
        }
    }

    void reportProblem(NoiseProtocolException problem) {
        reportProblem(problem.getMessage() + " [" + problem.problem() + "]");
    }

    /** {@code 192.0.2.1:41641}: the form the log lines use. */
    static String describe(SocketAddress address) {
        if (address instanceof InetSocketAddress inet && inet.getAddress() != null) {
            String host = inet.getAddress().getHostAddress();
            return (host.contains(":") ? "[" + host + "]" : host) + ":" + inet.getPort();
        }
        return String.valueOf(address);
    }

    @Override
    public String toString() {
        return "ControlConnection[" + describe(peerAddress) + ", " + machineKey.toText() + ", v" + protocolVersion + "]";
    }
}
