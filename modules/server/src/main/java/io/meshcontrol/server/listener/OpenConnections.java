package io.meshcontrol.server.listener;

import io.meshcontrol.core.RateLimitedLog;
import io.undertow.server.AbstractServerConnection;
import io.undertow.server.HttpHandler;
import io.undertow.server.HttpServerExchange;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.xnio.ChannelListener;
import org.xnio.IoUtils;
import org.xnio.StreamConnection;

/**
 * The open connections of one listener that have not switched to ts2021 or DERP, by remote address: each is capped
 * per address (a connection over the cap is closed as soon as it is accepted, before Undertow reads a byte of it) and
 * closed by {@link #closeIdle()} once it has moved no byte either way for the idle timeout ({@link Activity}). A
 * connection that switches protocols leaves both.
 *
 * <p>Connections are not told to us when they close (Undertow takes the one close listener a connection has), so
 * the table holds connections until they are seen closed: an address's entries are pruned when it connects again at
 * its cap, and the whole table every {@value #SWEEP_EVERY} connections and when counted. Not at every connection:
 * ten thousand clients redialling from one address (a NAT, or a load test on loopback) made each accept look at the
 * thousands before it, under the lock, and the accepting thread fell so far behind that clients' dials timed out.
 */
final class OpenConnections {

    private static final int SWEEP_EVERY = 256;

    private final int max;
    private final long idleNanos;
    private final Map<InetAddress, Map<StreamConnection, Activity>> open = new HashMap<>();
    private final AtomicLong refused = new AtomicLong();
    private final RateLimitedLog log;
    private long accepted;

    OpenConnections(ListenerLimits limits, RateLimitedLog log) {
        this.max = limits.maxConnectionsPerAddress();
        this.idleNanos = limits.idleTimeout().toNanos();
        this.log = log;
    }

    /** Admits each accepted connection to {@code next}, or closes it when its address holds {@link #max} already. */
    ChannelListener<StreamConnection> admitting(ChannelListener<? super StreamConnection> next) {
        return connection -> {
            InetAddress address = addressOf(connection.getPeerAddress());
            if (!admit(address, connection)) {
                refused.incrementAndGet();
                log.warn("connection", () -> "connection from " + address.getHostAddress() + " refused: it holds "
                        + max + " connections already (listener.max_connections_per_address)");
                IoUtils.safeClose(connection);
                return;
            }
            next.handleEvent(connection);
        };
    }

    /**
     * {@code next}, noting each connection that switches protocols (a {@code 101} answer: ts2021, DERP): once
     * the switch is answered it leaves the count and the idle timeout, the new protocol's own timeouts take over.
     */
    HttpHandler releasingUpgrades(HttpHandler next) {
        return exchange -> {
            exchange.addExchangeCompleteListener((done, proceed) -> {
                if (done.isUpgrade()) {
                    release(done);
                }
                proceed.proceed();
            });
            next.handleRequest(exchange);
        };
    }

    private synchronized void release(HttpServerExchange exchange) {
        if (!(exchange.getConnection() instanceof AbstractServerConnection http1)) {
            return; // HTTP/2 streams do not switch protocols
        }
        StreamConnection connection = http1.getChannel();
        Map<StreamConnection, Activity> connections = open.get(addressOf(connection.getPeerAddress()));
        if (connections != null) {
            connections.remove(connection);
        }
    }

    /** Closes the connections that have moved no byte for the idle timeout; call every second or so. */
    void closeIdle() {
        long now = System.nanoTime();
        List<StreamConnection> idle = new ArrayList<>();
        synchronized (this) {
            open.values().forEach(connections -> connections.forEach((connection, activity) -> {
                if (activity.idleNanos(now) > idleNanos) {
                    idle.add(connection);
                }
            }));
        }
        idle.forEach(IoUtils::safeClose);
    }

    private synchronized boolean admit(InetAddress address, StreamConnection connection) {
        if (++accepted % SWEEP_EVERY == 0) {
            sweep();
        }
        Map<StreamConnection, Activity> connections = open.computeIfAbsent(address, a -> new HashMap<>());
        if (max > 0 && connections.size() >= max && !address.isLoopbackAddress()) {
            connections.keySet().removeIf(c -> !c.isOpen()); // the cap counts open connections only
            if (connections.size() >= max) {
                return false;
            }
        }
        connections.put(connection, Activity.watch(connection));
        return true;
    }

    /** Connections open now that have not switched protocols. */
    synchronized int count() {
        sweep();
        return open.values().stream().mapToInt(Map::size).sum();
    }

    /** Connections closed at once because their address held the maximum. */
    long refused() {
        return refused.get();
    }

    private void sweep() {
        open.values().forEach(connections -> connections.keySet().removeIf(c -> !c.isOpen()));
        open.values().removeIf(Map::isEmpty);
    }

    private static InetAddress addressOf(SocketAddress peer) {
        return ((InetSocketAddress) peer).getAddress();
    }
}
