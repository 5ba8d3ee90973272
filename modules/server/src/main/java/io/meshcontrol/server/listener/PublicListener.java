package io.meshcontrol.server.listener;

import io.meshcontrol.core.RateLimitedLog;
import io.undertow.Undertow;
import io.undertow.UndertowOptions;
import io.undertow.connector.ByteBufferPool;
import io.undertow.protocols.ssl.UndertowXnioSsl;
import io.undertow.server.HttpHandler;
import io.undertow.server.protocol.http.HttpOpenListener;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.System.Logger.Level;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import org.xnio.ChannelListener;
import org.xnio.ChannelListeners;
import org.xnio.IoUtils;
import org.xnio.OptionMap;
import org.xnio.Options;
import org.xnio.StreamConnection;
import org.xnio.Xnio;
import org.xnio.XnioWorker;
import org.xnio.channels.AcceptingChannel;
import org.xnio.ssl.SslConnection;

/**
 * An HTTP listener that may face the network: Undertow's HTTP server on an accepting socket built here rather than by
 * {@link Undertow}'s builder, so that every accepted connection passes the per-address cap before Undertow reads from
 * it, with the {@link ListenerLimits} timeouts:
 * <ul>
 *   <li>{@code REQUEST_PARSE_TIMEOUT}: a header still incomplete this long after its first byte closes the
 *       connection (the slow-header attack);</li>
 *   <li>{@code NO_REQUEST_TIMEOUT}: a connection that sends nothing this long, after opening or between requests;</li>
 *   <li>the idle timeout: a connection that neither reads nor writes this long, mid-request too (a body that
 *       stalls); see {@link OpenConnections}, which arms it.</li>
 * </ul>
 * Once a connection switches protocols (ts2021, DERP) none of them runs any more: the first two belong to Undertow's
 * HTTP/1.1 parser, the third watches only connections that have not switched, and the protocol's own timeouts take
 * over.
 */
public final class PublicListener implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(PublicListener.class.getName());
    /** Undertow's own choice for a heap of this size: 16 KiB less room for the allocator's header. */
    private static final int BUFFER_SIZE = 16 * 1024 - 20;
    /**
     * Connections the kernel holds before they are accepted; what does not fit is dropped, and the client tries again
     * after its SYN's retransmission (1, then 3 s). A longer queue was tried (65,535, which Linux caps at
     * {@code net.core.somaxconn}): when 10,000 clients reconnect at once it only keeps them waiting past their 10 s
     * dial deadline, after which the server's work for them is lost (docs/performance.md, session 11).
     */
    private static final int ACCEPT_BACKLOG = 1000;

    /**
     * What to start.
     *
     * @param tls the certificate to serve HTTPS with, or null for plain HTTP
     * @param serverOptions Undertow options besides the timeouts ({@code MAX_ENTITY_SIZE})
     */
    public record Setup(String host, int port, SSLContext tls, HttpHandler handler, OptionMap serverOptions,
                        int ioThreads, ListenerLimits limits) {
    }

    private final XnioWorker worker;
    private final AcceptingChannel<? extends StreamConnection> channel;
    private final InetSocketAddress address;
    private final OpenConnections connections;

    private PublicListener(XnioWorker worker, AcceptingChannel<? extends StreamConnection> channel,
            OpenConnections connections) {
        this.worker = worker;
        this.channel = channel;
        this.address = (InetSocketAddress) channel.getLocalAddress();
        this.connections = connections;
    }

    /** Binds and starts accepting; a port that cannot be bound is an {@link UncheckedIOException}. */
    public static PublicListener start(Setup setup) {
        Xnio xnio = Xnio.getInstance(Undertow.class.getClassLoader());
        XnioWorker worker;
        try {
            worker = xnio.createWorker(OptionMap.builder()
                    .set(Options.WORKER_IO_THREADS, setup.ioThreads())
                    .set(Options.WORKER_TASK_CORE_THREADS, setup.ioThreads() * 8)
                    .set(Options.WORKER_TASK_MAX_THREADS, setup.ioThreads() * 8)
                    .set(Options.TCP_NODELAY, true)
                    .set(Options.CORK, true)
                    .getMap());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start the I/O threads: " + e.getMessage(), e);
        }
        try {
            ListenerLimits limits = setup.limits();
            OptionMap undertowOptions = OptionMap.builder()
                    .set(UndertowOptions.BUFFER_PIPELINED_DATA, true)
                    .set(UndertowOptions.REQUEST_PARSE_TIMEOUT, millis(limits.headerTimeout()))
                    .set(UndertowOptions.NO_REQUEST_TIMEOUT, millis(limits.idleTimeout()))
                    .set(UndertowOptions.IDLE_TIMEOUT, millis(limits.idleTimeout()))
                    .addAll(setup.serverOptions())
                    .getMap();
            OpenConnections connections = new OpenConnections(limits, new RateLimitedLog(LOG));
            ByteBufferPool buffers = BufferPools.shared(BUFFER_SIZE);
            HttpOpenListener http = new HttpOpenListener(buffers, undertowOptions);
            // HTTP/1.1 only: Undertow's h2c upgrade corrupted about one large answer in a hundred (frames cut short;
            // java.net.http offers h2c on every first request), and HTTPS never offered HTTP/2 (no ALPN here).
            http.setRootHandler(connections.releasingUpgrades(setup.handler()));
            ChannelListener<AcceptingChannel<StreamConnection>> accept =
                    ChannelListeners.openListenerAdapter(connections.admitting(http));
            OptionMap socketOptions = OptionMap.builder()
                    .set(Options.WORKER_IO_THREADS, worker.getIoThreadCount())
                    .set(Options.TCP_NODELAY, true)
                    .set(Options.REUSE_ADDRESSES, true)
                    .set(Options.BALANCING_TOKENS, 1)
                    .set(Options.BALANCING_CONNECTIONS, 2)
                    .set(Options.BACKLOG, ACCEPT_BACKLOG)
                    .getMap();
            InetSocketAddress address = new InetSocketAddress(InetAddress.getByName(setup.host()), setup.port());
            AcceptingChannel<? extends StreamConnection> channel = setup.tls() == null
                    ? worker.createStreamConnectionServer(address, accept, socketOptions)
                    : new UndertowXnioSsl(xnio, OptionMap.create(Options.USE_DIRECT_BUFFERS, true), setup.tls())
                            .createSslConnectionServer(worker, address, sslAccept(accept), socketOptions);
            channel.resumeAccepts();
            long period = Math.max(100, Math.min(1000, limits.idleTimeout().toMillis() / 4));
            worker.getIoThread().executeAtInterval(connections::closeIdle, period, TimeUnit.MILLISECONDS);
            return new PublicListener(worker, channel, connections);
        } catch (IOException | RuntimeException e) {
            worker.shutdownNow();
            throw e instanceof IOException io
                    ? new UncheckedIOException("cannot listen on " + setup.host() + ":" + setup.port() + ": "
                            + e.getMessage(), io)
                    : (RuntimeException) e;
        }
    }

    /** The same listener for TLS connections, which are stream connections too (Undertow's builder casts alike). */
    @SuppressWarnings({"unchecked", "rawtypes"})
    private static ChannelListener<AcceptingChannel<SslConnection>> sslAccept(
            ChannelListener<AcceptingChannel<StreamConnection>> accept) {
        return (ChannelListener) accept;
    }

    private static int millis(Duration duration) {
        return (int) Math.min(Integer.MAX_VALUE, duration.toMillis());
    }

    /** The bound address (with the port chosen when 0 was asked for). */
    public InetSocketAddress address() {
        return address;
    }

    /** Open connections that have not switched to ts2021 or DERP: what the per-address cap counts. */
    public int openConnections() {
        return connections.count();
    }

    /** Connections closed on arrival because their address held the maximum. */
    public long refusedConnections() {
        return connections.refused();
    }

    /**
     * Stops accepting, then lets the I/O threads close the connections; should they not finish within {@code grace}
     * (a stop was once seen hanging in a test run), they are stopped hard, so that closing never hangs. Closing
     * twice does nothing more.
     */
    public void close(Duration grace) {
        if (!channel.isOpen() && worker.isShutdown()) {
            return;
        }
        IoUtils.safeClose(channel);
        worker.shutdown();
        try {
            if (!worker.awaitTermination(grace.toMillis(), TimeUnit.MILLISECONDS)) {
                LOG.log(Level.WARNING, "listener " + address + " did not stop within " + grace + "; closing it hard");
                worker.shutdownNow();
            }
        } catch (InterruptedException e) {
            worker.shutdownNow();
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        close(Duration.ofSeconds(5));
    }
}
