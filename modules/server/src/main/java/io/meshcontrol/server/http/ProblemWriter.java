package io.meshcontrol.server.http;

import io.meshcontrol.api.Problem;
import io.meshcontrol.core.TextPosition;
import io.undertow.server.HttpServerExchange;
import io.undertow.util.Headers;
import io.undertow.util.StatusCodes;
import java.nio.ByteBuffer;
import tools.jackson.databind.json.JsonMapper;

/** Writes RFC 7807 problem details: the one error shape of {@code /api/v1}. */
public final class ProblemWriter implements ErrorFormat {

    private final JsonMapper json;

    public ProblemWriter(JsonMapper json) {
        this.json = json;
    }

    @Override
    public void refuse(HttpServerExchange exchange, int status, String detail) {
        write(exchange, new Problem("about:blank", StatusCodes.getReason(status), status, detail, exchange.getRequestPath(), null));
    }

    @Override
    public void refuse(HttpServerExchange exchange, int status, String detail, TextPosition position) {
        write(exchange, new Problem("about:blank", StatusCodes.getReason(status), status, detail,
                exchange.getRequestPath(), null, position == null ? null : position.line(),
                position == null ? null : position.column()));
    }

    @Override
    public void fail(HttpServerExchange exchange, String errorId) {
        write(exchange, new Problem("about:blank", "Internal Server Error", StatusCodes.INTERNAL_SERVER_ERROR,
                "unexpected failure; the server log has the details under error id " + errorId,
                exchange.getRequestPath(), errorId));
    }

    private void write(HttpServerExchange exchange, Problem problem) {
        exchange.setStatusCode(problem.status());
        exchange.getResponseHeaders().put(Headers.CONTENT_TYPE, Problem.MEDIA_TYPE);
        if (problem.status() == StatusCodes.UNAUTHORIZED) {
            exchange.getResponseHeaders().put(Headers.WWW_AUTHENTICATE, "Bearer");
        }
        exchange.getResponseSender().send(ByteBuffer.wrap(json.writeValueAsBytes(problem)));
    }
}
