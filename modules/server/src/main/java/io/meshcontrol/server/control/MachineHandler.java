package io.meshcontrol.server.control;

import io.undertow.server.HttpServerExchange;

/**
 * A {@code /machine/*} endpoint that may block: it runs on a virtual thread with the exchange already in blocking
 * mode, so it reads the body from {@code exchange.getInputStream()} and writes to {@code exchange.getOutputStream()}.
 * Each {@code flush()} of that stream sends what was written to the client at once (one HTTP/2 DATA frame, sealed in
 * Noise records): a long poll writes a message, flushes, and waits for the next. The exchange ends when the handler
 * returns.
 */
@FunctionalInterface
public interface MachineHandler {

    /**
     * @param connection the ts2021 connection the request came on (the same as {@code ControlConnection.of(exchange)})
     * @throws Exception a {@link io.meshcontrol.core.MeshException} is a refusal: the status of its reason and its
     *                   message as a line of plain text. Anything else is unexpected: logged with an error id; the
     *                   client gets a 500 naming the id if nothing was sent yet, otherwise the stream is cut
     */
    void handle(HttpServerExchange exchange, ControlConnection connection) throws Exception;
}
