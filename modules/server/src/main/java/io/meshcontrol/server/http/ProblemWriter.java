package io.meshcontrol.server.http;

import io.meshcontrol.api.Problem;
import io.meshcontrol.core.MeshException;
import io.undertow.server.HttpServerExchange;
import io.undertow.util.Headers;
import io.undertow.util.StatusCodes;
import java.nio.ByteBuffer;
import tools.jackson.databind.json.JsonMapper;

/** Writes RFC 7807 problem details: the one error shape of {@code /api/v1}. */
public final class ProblemWriter {

    private final JsonMapper json;

    public ProblemWriter(JsonMapper json) {
        this.json = json;
    }

    public static int status(MeshException.Reason reason) {
        return switch (reason) {
            case INVALID -> StatusCodes.BAD_REQUEST;
            case UNAUTHENTICATED -> StatusCodes.UNAUTHORIZED;
            case FORBIDDEN -> StatusCodes.FORBIDDEN;
            case NOT_FOUND -> StatusCodes.NOT_FOUND;
            case CONFLICT -> StatusCodes.CONFLICT;
            case PRECONDITION_FAILED -> StatusCodes.PRECONDITION_FAILED;
        };
    }

    public void write(HttpServerExchange exchange, int status, String detail) {
        write(exchange, new Problem("about:blank", StatusCodes.getReason(status), status, detail, exchange.getRequestPath(), null));
    }

    public void write(HttpServerExchange exchange, Problem problem) {
        exchange.setStatusCode(problem.status());
        exchange.getResponseHeaders().put(Headers.CONTENT_TYPE, Problem.MEDIA_TYPE);
        if (problem.status() == StatusCodes.UNAUTHORIZED) {
            exchange.getResponseHeaders().put(Headers.WWW_AUTHENTICATE, "Bearer");
        }
        exchange.getResponseSender().send(ByteBuffer.wrap(json.writeValueAsBytes(problem)));
    }
}
