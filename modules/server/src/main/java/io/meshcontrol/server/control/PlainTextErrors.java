package io.meshcontrol.server.control;

import io.meshcontrol.server.http.ErrorFormat;
import io.undertow.server.HttpServerExchange;
import io.undertow.util.Headers;
import io.undertow.util.StatusCodes;
import java.nio.charset.StandardCharsets;

/**
 * The error format of {@code /machine/*}: one line of plain text, as Tailscale's own servers send (clients show it,
 * they do not parse it).
 */
final class PlainTextErrors implements ErrorFormat {

    @Override
    public void refuse(HttpServerExchange exchange, int status, String detail) {
        write(exchange, status, detail);
    }

    @Override
    public void fail(HttpServerExchange exchange, String errorId) {
        write(exchange, StatusCodes.INTERNAL_SERVER_ERROR,
                "internal error; the server log has the details under error id " + errorId);
    }

    private static void write(HttpServerExchange exchange, int status, String text) {
        exchange.setStatusCode(status);
        exchange.getResponseHeaders().put(Headers.CONTENT_TYPE, "text/plain; charset=utf-8");
        exchange.getResponseSender().send(text + "\n", StandardCharsets.UTF_8);
    }
}
