package io.meshcontrol.server.v2;

import io.meshcontrol.server.http.ErrorFormat;
import io.undertow.server.HttpServerExchange;
import io.undertow.util.Headers;
import io.undertow.util.StatusCodes;
import java.nio.ByteBuffer;
import tools.jackson.databind.json.JsonMapper;

/**
 * The error shape of {@code /api/v2}: a JSON object whose {@code message} says what went wrong. The vendor's clients
 * decode exactly this (a body that is not JSON breaks their "ignore 404" paths), and print it as
 * {@code "<message> (<status>)"}.
 */
public final class VendorErrors implements ErrorFormat {

    private final JsonMapper json;

    public VendorErrors(JsonMapper json) {
        this.json = json;
    }

    @Override
    public void refuse(HttpServerExchange exchange, int status, String detail) {
        if (status == StatusCodes.UNAUTHORIZED) {
            exchange.getResponseHeaders().put(Headers.WWW_AUTHENTICATE, "Bearer");
        }
        write(exchange, status, new Answers.Error(detail, null));
    }

    @Override
    public void fail(HttpServerExchange exchange, String errorId) {
        write(exchange, StatusCodes.INTERNAL_SERVER_ERROR, new Answers.Error(
                "unexpected failure; the server log has the details under error id " + errorId, errorId));
    }

    private void write(HttpServerExchange exchange, int status, Answers.Error body) {
        exchange.setStatusCode(status);
        exchange.getResponseHeaders().put(Headers.CONTENT_TYPE, "application/json");
        exchange.getResponseSender().send(ByteBuffer.wrap(json.writeValueAsBytes(body)));
    }
}
