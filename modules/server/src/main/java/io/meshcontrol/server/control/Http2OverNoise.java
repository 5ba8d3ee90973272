package io.meshcontrol.server.control;

import io.meshcontrol.core.RateLimitedLog;
import io.meshcontrol.core.crypto.AcceptedHandshake;
import io.meshcontrol.core.crypto.EarlyPayload;
import io.meshcontrol.core.key.ChallengePrivateKey;
import io.undertow.connector.ByteBufferPool;
import io.undertow.server.HttpHandler;
import io.undertow.server.protocol.http2.Http2OpenListener;
import io.undertow.server.protocol.http2.Http2ReceiveListener;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.ByteBuffer;
import java.time.Clock;
import org.xnio.ChannelListeners;
import org.xnio.IoUtils;
import org.xnio.OptionMap;
import org.xnio.StreamConnection;
import org.xnio.conduits.ConduitStreamSinkChannel;
import io.meshcontrol.core.wire.EarlyNoise;
import io.meshcontrol.core.wire.WireJson;

/**
 * Turns a connection that has just switched protocols into a ts2021 session: Noise conduits around its socket
 * conduits, the handshake response and the early payload out first, then Undertow's own HTTP/2 server reading and
 * writing through the conduits, with the {@code /machine/*} routes as its handler chain.
 *
 * <p>Why Undertow's HTTP/2 rather than a second stack: see {@code docs/control-transport.md}. Tailscale's client speaks
 * HTTP/2 with prior knowledge here (the connection preface straight away, no ALPN, no h2c upgrade), which is what
 * Undertow's server channel expects on a fresh connection.
 */
final class Http2OverNoise {

    private static final System.Logger LOG = System.getLogger(Http2OverNoise.class.getName());

    private final ByteBufferPool pool;
    private final OptionMap http2Options;
    private final HttpHandler routes;
    private final Clock clock;
    private final RateLimitedLog warnings;

    Http2OverNoise(ByteBufferPool pool, OptionMap http2Options, HttpHandler routes, Clock clock,
            RateLimitedLog warnings) {
        this.warnings = warnings;
        this.pool = pool;
        this.http2Options = http2Options;
        this.routes = routes;
        this.clock = clock;
    }

    /**
     * Starts the session. Call on the connection's I/O thread, right after the {@code 101 Switching Protocols} went
     * out.
     *
     * @param challenge the early payload's challenge key, or null to send no early payload (clients before protocol
     *                  version 49 would take its bytes for HTTP/2)
     */
    void start(StreamConnection connection, AcceptedHandshake handshake, ChallengePrivateKey challenge) {
        ControlConnection control = new ControlConnection(handshake.clientKey(), handshake.protocolVersion(), challenge,
                connection.getPeerAddress(), clock.instant(), warnings, IoThreadTasks.current());
        EncryptingSinkConduit sink = new EncryptingSinkConduit(connection.getSinkChannel().getConduit(),
                handshake.transport().encoder(), pool, handshake.response());
        DecryptingSourceConduit source = new DecryptingSourceConduit(connection.getSourceChannel().getConduit(),
                handshake.transport().decoder(), pool, control::reportProblem);
        connection.getSinkChannel().setConduit(sink);
        connection.getSourceChannel().setConduit(source);
        try {
            if (challenge != null) {
                byte[] early = EarlyPayload.encode(WireJson.write(new EarlyNoise(challenge.publicKey())));
                sink.write(ByteBuffer.wrap(early));
            }
            // The client sends its HTTP/2 preface only after reading the handshake response, and Undertow's server
            // writes nothing before it has the preface: so these first bytes must leave now, not with HTTP/2's
            // first flush, or both sides would wait for each other.
            ConduitStreamSinkChannel channel = connection.getSinkChannel();
            if (channel.flush()) {
                serveHttp2(connection, control);
                return;
            }
            channel.getWriteSetter().set(ChannelListeners.flushingChannelListener(
                    flushed -> {
                        flushed.suspendWrites();
                        serveHttp2(connection, control);
                    },
                    (failed, e) -> closeEarly(connection, control, e)));
            channel.resumeWrites();
        } catch (IOException e) {
            closeEarly(connection, control, e);
        }
    }

    /**
     * What {@link Http2OpenListener#handleEvent} does for a new connection, minus statistics and the timeouts we do not
     * set, plus the {@link ControlConnection} attached to the channel, where every exchange on it finds it.
     */
    private void serveHttp2(StreamConnection connection, ControlConnection control) {
        LOG.log(Level.DEBUG, () -> "ts2021 session started: " + control);
        ControlHttp2Channel channel = new ControlHttp2Channel(connection, pool, http2Options, control);
        channel.putAttachment(ControlConnection.ATTACHMENT, control);
        channel.getReceiveSetter().set(new Http2ReceiveListener(routes, http2Options, pool.getBufferSize(), null));
        channel.resumeReceives();
    }

    private static void closeEarly(StreamConnection connection, ControlConnection control, IOException e) {
        LOG.log(Level.DEBUG, () -> "ts2021 connection lost before HTTP/2 began: " + control + ": " + e);
        IoUtils.safeClose(connection);
    }
}
