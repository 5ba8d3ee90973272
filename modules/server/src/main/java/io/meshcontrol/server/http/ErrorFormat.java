package io.meshcontrol.server.http;

import io.meshcontrol.core.TextPosition;
import io.undertow.server.HttpServerExchange;

/**
 * How one API tells its clients what went wrong: {@code /api/v1} with RFC 7807 problem details, {@code /machine/*}
 * with a line of plain text, as Tailscale's own servers do. The {@link ErrorStage} decides the status and finds the
 * error id; the format only writes the answer, on a response that has not started.
 */
public interface ErrorFormat {

    /** A refusal (4xx): the request was wrong, unauthenticated, or not allowed; {@code detail} says how. */
    void refuse(HttpServerExchange exchange, int status, String detail);

    /** As {@link #refuse(HttpServerExchange, int, String)}, for a refused text with the place of its problem. */
    default void refuse(HttpServerExchange exchange, int status, String detail, TextPosition position) {
        refuse(exchange, status, detail);
    }

    /** An unexpected failure (500), logged under {@code errorId}: the answer names the id so the log entry is found. */
    void fail(HttpServerExchange exchange, String errorId);
}
