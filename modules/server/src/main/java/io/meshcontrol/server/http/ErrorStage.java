package io.meshcontrol.server.http;

import io.meshcontrol.core.MeshException;
import io.meshcontrol.core.RandomText;
import io.undertow.server.HttpHandler;
import io.undertow.server.HttpServerExchange;
import io.undertow.util.Headers;
import io.undertow.util.StatusCodes;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.channels.ClosedChannelException;
import org.xnio.IoUtils;

/**
 * Answers what the rest of the chain throws, in the API's {@link ErrorFormat}: a {@link MeshException} is a refusal
 * with the status of its reason; anything else is a 500 whose error id is in the log line with the stack trace. A
 * client that went away is no error at all, and a response already started is cut rather than finished with an error.
 */
final class ErrorStage implements HttpHandler {

    private static final System.Logger LOG = System.getLogger(ErrorStage.class.getName());

    private final ErrorFormat errors;
    private final String method;
    private final String route;
    private final HttpHandler next;

    ErrorStage(ErrorFormat errors, String method, String route, HttpHandler next) {
        this.errors = errors;
        this.method = method;
        this.route = route;
        this.next = next;
    }

    static int status(MeshException.Reason reason) {
        return switch (reason) {
            case INVALID -> StatusCodes.BAD_REQUEST;
            case UNAUTHENTICATED -> StatusCodes.UNAUTHORIZED;
            case FORBIDDEN -> StatusCodes.FORBIDDEN;
            case NOT_FOUND -> StatusCodes.NOT_FOUND;
            case CONFLICT -> StatusCodes.CONFLICT;
            case PRECONDITION_FAILED -> StatusCodes.PRECONDITION_FAILED;
        };
    }

    @Override
    public void handleRequest(HttpServerExchange exchange) {
        try (LoggedRequest.Scope scope = LoggedRequest.enter(logged(exchange))) {
            try {
                next.handleRequest(exchange);
            } catch (Exception e) {
                answer(exchange, e);
            }
        }
    }

    /** This request as its log lines name it. */
    private LoggedRequest logged(HttpServerExchange exchange) {
        return new LoggedRequest(method, route, exchange.getRequestPath(), String.valueOf(requester(exchange)), null);
    }

    private void answer(HttpServerExchange exchange, Exception e) {
        if (clientGone(exchange, e)) {
            // The client closed the stream or the connection before the answer was written (it gave up waiting, or
            // went away): a disconnect, not a server error.
            LOG.log(Level.DEBUG, () -> method + " " + exchange.getRequestPath() + " from " + requester(exchange)
                    + ": client went away: " + e);
            return;
        }
        if (exchange.isResponseStarted()) {
            logged(exchange, e);
            // Half a response must not look like a whole one. On HTTP/2, closing the exchange's connection resets this
            // stream only (RST_STREAM CANCEL); the connection and its other streams stay.
            IoUtils.safeClose(exchange.getConnection());
            return;
        }
        // A length the endpoint set is not the length of the error.
        exchange.getResponseHeaders().remove(Headers.CONTENT_LENGTH);
        if (!exchange.isRequestComplete() && (exchange.getRequestHeaders().contains(Headers.TRANSFER_ENCODING)
                || exchange.getRequestContentLength() > Routes.MAX_BODY_BYTES)) {
            // A refused request's unread body may be of any size: the connection closes after the answer instead
            // of reading it to keep the connection (Undertow would read up to its limit, then cut the connection).
            exchange.setPersistent(false);
        }
        switch (e) {
            case MeshException refused -> errors.refuse(exchange, status(refused.reason()), refused.getMessage(),
                    refused.position().orElse(null));
            case ApiRequest.BodyTooLargeException tooLarge ->
                    errors.refuse(exchange, StatusCodes.REQUEST_ENTITY_TOO_LARGE, tooLarge.getMessage());
            case FailedCredentials.TooManyFailures tooMany -> {
                exchange.getResponseHeaders().put(Headers.RETRY_AFTER,
                        Long.toString(Math.max(1, tooMany.retryAfter().toSeconds())));
                errors.refuse(exchange, StatusCodes.TOO_MANY_REQUESTS, tooMany.getMessage());
            }
            default -> errors.fail(exchange, logged(exchange, e));
        }
    }

    /** Logs an unexpected failure under a new error id, and returns the id. */
    private String logged(HttpServerExchange exchange, Exception e) {
        String errorId = RandomText.lowerAlphanumeric(12);
        try (LoggedRequest.Scope scope = LoggedRequest.enter(logged(exchange).withErrorId(errorId))) {
            LOG.log(Level.ERROR, "error id " + errorId + ": " + method + " " + route + " from " + requester(exchange)
                    + " failed", e);
        }
        return errorId;
    }

    private static Object requester(HttpServerExchange exchange) {
        Object requester = exchange.getAttachment(RequestPipeline.REQUESTER);
        return requester != null ? requester : exchange.getSourceAddress();
    }

    private static boolean clientGone(HttpServerExchange exchange, Exception e) {
        return e instanceof ClosedChannelException || e instanceof IOException && !exchange.getConnection().isOpen();
    }
}
