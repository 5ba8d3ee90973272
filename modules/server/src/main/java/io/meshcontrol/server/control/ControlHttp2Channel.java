package io.meshcontrol.server.control;

import io.undertow.connector.ByteBufferPool;
import io.undertow.protocols.http2.AbstractHttp2StreamSinkChannel;
import io.undertow.protocols.http2.Http2Channel;
import io.undertow.server.protocol.http2.Http2OpenListener;
import org.xnio.ChannelExceptionHandler;
import org.xnio.OptionMap;
import org.xnio.StreamConnection;

/**
 * Undertow's server-side HTTP/2 connection, unchanged except that it tells the {@link ControlConnection} why it gives
 * up. Undertow logs HTTP/2 protocol errors only at debug level; a client that sends valid Noise records holding
 * something other than HTTP/2 would otherwise vanish without a word. Every connection error ends in a GOAWAY with an
 * error code, so that is where the problem is reported, together with the exception that caused it when there was one.
 * Ordinary endings (GOAWAY {@code NO_ERROR} for an idle connection or a shutdown, {@code CONNECT_ERROR} for a peer that
 * just closed, and an ending because the socket itself failed, such as a client that reset its connection)
 * are not problems: they are logged at debug level only. Noise-level problems reach the log from the decrypting
 * conduit before this channel notices them.
 */
final class ControlHttp2Channel extends Http2Channel {

    private static final String[] ERROR_NAMES = {"NO_ERROR", "PROTOCOL_ERROR", "INTERNAL_ERROR", "FLOW_CONTROL_ERROR",
        "SETTINGS_TIMEOUT", "STREAM_CLOSED", "FRAME_SIZE_ERROR", "REFUSED_STREAM", "CANCEL", "COMPRESSION_ERROR",
        "CONNECT_ERROR", "ENHANCE_YOUR_CALM", "INADEQUATE_SECURITY", "HTTP_1_1_REQUIRED"};

    private static final System.Logger LOG = System.getLogger(ControlHttp2Channel.class.getName());

    private final ControlConnection control;
    private volatile Throwable brokenBy;

    ControlHttp2Channel(StreamConnection connection, ByteBufferPool pool, OptionMap options, ControlConnection control) {
        // A server channel (not client side), not from an h2c upgrade: it expects the client preface first, which is
        // how Tailscale's client starts (prior knowledge).
        super(connection, Http2OpenListener.HTTP2, pool, null, false, false, options);
        this.control = control;
    }

    @Override
    protected void handleBrokenSourceChannel(Throwable e) {
        brokenBy = e;
        super.handleBrokenSourceChannel(e);
    }

    @Override
    public void sendGoAway(int status, ChannelExceptionHandler<AbstractHttp2StreamSinkChannel> exceptionHandler) {
        Throwable cause = brokenBy;
        if (isDisconnect(cause)) {
            // The socket failed under us (the client reset or dropped the connection): a disconnect, not a protocol
            // problem, however Undertow names the GOAWAY it then sends.
            LOG.log(System.Logger.Level.DEBUG, () -> "ts2021 connection " + control + " ended: " + cause);
        } else if (status != ERROR_NO_ERROR && status != ERROR_CONNECT_ERROR) {
            control.reportProblem("HTTP/2 " + (status < ERROR_NAMES.length ? ERROR_NAMES[status] : "error " + status)
                    + (cause == null ? "" : ": " + cause.getMessage()));
        }
        super.sendGoAway(status, exceptionHandler);
    }

    /** Reading failed because the connection itself went (reset, closed), not because of what the client sent. */
    private static boolean isDisconnect(Throwable cause) {
        if (cause instanceof java.net.SocketException || cause instanceof java.nio.channels.ClosedChannelException) {
            return true;
        }
        String message = cause == null ? null : cause.getMessage();
        return cause != null && cause.getClass() == java.io.IOException.class && message != null
                && (message.contains("Connection reset") || message.contains("Broken pipe"));
    }
}
