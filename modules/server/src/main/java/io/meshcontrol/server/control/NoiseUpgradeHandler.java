package io.meshcontrol.server.control;

import io.meshcontrol.core.RateLimitedLog;
import io.meshcontrol.core.crypto.AcceptedHandshake;
import io.meshcontrol.core.crypto.NoiseFrames;
import io.meshcontrol.core.crypto.NoiseProtocolException;
import io.meshcontrol.core.crypto.NoiseResponder;
import io.meshcontrol.core.key.ChallengePrivateKey;
import io.undertow.server.HttpHandler;
import io.undertow.server.HttpServerExchange;
import io.undertow.util.Headers;
import io.undertow.util.HttpString;
import io.undertow.util.Protocols;
import io.undertow.util.StatusCodes;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Base64;
import java.util.concurrent.Executor;
import java.util.function.Consumer;
import org.xnio.IoUtils;
import org.xnio.StreamConnection;
import org.xnio.conduits.ConduitStreamSinkChannel;

/**
 * {@code POST /ts2021}: the HTTP/1.1 request that carries a client's Noise initiation and switches the connection to
 * the control protocol.
 *
 * <p>The answers follow Tailscale's server ({@code controlhttpserver.AcceptHTTP}), because what its client shows a user
 * depends on them:
 * <ul>
 *   <li>no usable {@code Upgrade} or {@code X-Tailscale-Handshake} header: a plain {@code 400}, with Tailscale's text;</li>
 *   <li>a malformed initiation (size, type, length field): {@code 101}, then a Noise error frame with Tailscale's fixed
 *       hint, which the client reports as the server's error (a 400 would only show as a status line);</li>
 *   <li>an initiation that does not authenticate: {@code 101}, then the connection closes with nothing said: no text
 *       an attacker could learn from;</li>
 *   <li>success: {@code 101}, the 51-byte response, the early payload, then HTTP/2 ({@link Http2OverNoise}).</li>
 * </ul>
 * Every refusal closes the connection and logs one line naming the problem and the peer, at most a few a minute
 * ({@link RateLimitedLog}): anyone can send malformed handshakes, as fast as they like.
 *
 * <p>The handshake costs a few X25519 operations, so it runs on a worker, not on the I/O thread. {@code GET} is served
 * the same way as {@code POST}: Tailscale's native client always posts, but its own server and headscale accept both.
 * The WebSocket variant (browser clients) is not offered.
 */
final class NoiseUpgradeHandler implements HttpHandler {

    /** The {@code Upgrade} token, both ways. Tailscale's client wants exactly this value back. */
    static final String PROTOCOL = "tailscale-control-protocol";
    /** Request header with the 101-byte initiation, standard base64 with padding. */
    static final HttpString HANDSHAKE_HEADER = HttpString.tryFromString("X-Tailscale-Handshake");
    /** Clients from this protocol version on read an early payload (tailcfg capability version 49, 2022-11). */
    static final int EARLY_NOISE_VERSION = 49;

    /** Refusals in the words and shape of the {@code /machine/*} errors: the same clients read both. */
    private static final PlainTextErrors ERRORS = new PlainTextErrors();

    private final NoiseResponder responder;
    private final Http2OverNoise sessions;
    private final Executor workers;
    private final int oldestProtocolVersion;
    private final RateLimitedLog warnings;

    NoiseUpgradeHandler(NoiseResponder responder, Http2OverNoise sessions, Executor workers, int oldestProtocolVersion,
            RateLimitedLog warnings) {
        this.warnings = warnings;
        this.responder = responder;
        this.sessions = sessions;
        this.workers = workers;
        this.oldestProtocolVersion = oldestProtocolVersion;
    }

    @Override
    public void handleRequest(HttpServerExchange exchange) {
        if (exchange.isInIoThread()) {
            exchange.dispatch(workers, this);
            return;
        }
        String upgrade = exchange.getRequestHeaders().getFirst(Headers.UPGRADE);
        if (!exchange.getProtocol().equals(Protocols.HTTP_1_1)) {
            // Only HTTP/1.1 can switch protocols; the client turns HTTP/2 off for this request for that reason.
            refuse(exchange, "make request over HTTP/1");
            return;
        }
        if (upgrade == null || upgrade.isBlank()) {
            refuse(exchange, "missing next protocol");
            return;
        }
        if (!upgrade.strip().equalsIgnoreCase(PROTOCOL)) {
            refuse(exchange, "unknown next protocol");
            return;
        }
        String header = exchange.getRequestHeaders().getFirst(HANDSHAKE_HEADER);
        if (header == null || header.isEmpty()) {
            refuse(exchange, "missing Tailscale handshake header");
            return;
        }
        byte[] initiation;
        try {
            initiation = Base64.getDecoder().decode(header);
        } catch (IllegalArgumentException e) {
            refuse(exchange, "invalid tailscale handshake header");
            return;
        }

        AcceptedHandshake handshake;
        try {
            handshake = responder.respond(initiation);
        } catch (NoiseProtocolException e) {
            log(exchange, "handshake", e.clientHint().orElse(e.getMessage()) + " [" + e.problem() + "]");
            byte[] frame = e.clientHint().map(NoiseFrames::errorFrame).orElse(new byte[0]);
            switchProtocols(exchange, connection -> sendAndClose(connection, frame));
            return;
        }
        if (handshake.protocolVersion() < oldestProtocolVersion) {
            log(exchange, "handshake", "protocol version " + handshake.protocolVersion() + " is older than "
                    + oldestProtocolVersion + " (" + handshake.clientKey().toText() + ")");
            byte[] frame = NoiseFrames.errorFrame("unsupported protocol version");
            switchProtocols(exchange, connection -> sendAndClose(connection, frame));
            return;
        }
        ChallengePrivateKey challenge = handshake.protocolVersion() >= EARLY_NOISE_VERSION
                ? ChallengePrivateKey.generate()
                : null;
        switchProtocols(exchange, connection -> sessions.start(connection, handshake, challenge));
    }

    /** Answers 101 and runs {@code then} on the raw connection's I/O thread once the 101 has been flushed. */
    private static void switchProtocols(HttpServerExchange exchange, Consumer<StreamConnection> then) {
        exchange.upgradeChannel(PROTOCOL, (connection, upgraded) -> connection.getIoThread().execute(
                () -> then.accept(connection)));
        exchange.endExchange();
    }

    private void refuse(HttpServerExchange exchange, String reason) {
        log(exchange, "upgrade", reason);
        exchange.setPersistent(false);
        ERRORS.refuse(exchange, StatusCodes.BAD_REQUEST, reason);
    }

    /** Writes a few bytes (an error frame, or none) and closes. They fit an empty socket buffer, so no waiting. */
    private static void sendAndClose(StreamConnection connection, byte[] bytes) {
        ConduitStreamSinkChannel sink = connection.getSinkChannel();
        ByteBuffer buffer = ByteBuffer.wrap(bytes);
        try {
            while (buffer.hasRemaining() && sink.write(buffer) > 0) {
                // a fresh connection takes a few bytes at once
            }
            sink.shutdownWrites();
            sink.flush();
        } catch (IOException ignored) {
            // the client left first; the hint was only a courtesy
        } finally {
            IoUtils.safeClose(connection);
        }
    }

    private void log(HttpServerExchange exchange, String stage, String problem) {
        warnings.warn("ts2021 " + stage, () -> "ts2021 " + stage + " from "
                + ControlConnection.describe(exchange.getSourceAddress()) + " refused: " + problem);
    }
}
