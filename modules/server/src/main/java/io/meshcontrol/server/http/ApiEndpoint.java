package io.meshcontrol.server.http;

import io.meshcontrol.api.Problem;
import io.meshcontrol.core.MeshException;
import io.meshcontrol.core.RandomText;
import io.meshcontrol.core.auth.Caller;
import io.meshcontrol.server.metrics.HttpMetrics;
import io.undertow.server.HttpHandler;
import io.undertow.server.HttpServerExchange;
import io.undertow.util.Headers;
import io.undertow.util.StatusCodes;
import java.lang.System.Logger.Level;
import java.nio.ByteBuffer;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import tools.jackson.databind.json.JsonMapper;

/**
 * Runs one {@link Route} for an exchange: on a virtual thread, authenticated when the route says so,
 * with every failure answered as a problem document and every answer counted.
 */
final class ApiEndpoint implements HttpHandler {

    private static final System.Logger LOG = System.getLogger(ApiEndpoint.class.getName());

    private final Route route;
    private final Authenticator authenticator;
    private final JsonMapper json;
    private final ProblemWriter problems;
    private final HttpMetrics metrics;
    private final ExecutorService workers;

    ApiEndpoint(Route route, Authenticator authenticator, JsonMapper json, HttpMetrics metrics, ExecutorService workers) {
        this.route = route;
        this.authenticator = authenticator;
        this.json = json;
        this.problems = new ProblemWriter(json);
        this.metrics = metrics;
        this.workers = workers;
    }

    @Override
    public void handleRequest(HttpServerExchange exchange) {
        if (exchange.isInIoThread()) {
            exchange.dispatch(workers, this);
            return;
        }
        long start = System.nanoTime();
        exchange.addExchangeCompleteListener((done, next) -> {
            metrics.record(route.method(), route.template(), done.getStatusCode(), start);
            next.proceed();
        });
        exchange.startBlocking();
        try {
            Caller caller = route.authenticated() ? authenticator.authenticate(exchange) : null;
            Reply reply = route.handler().handle(new ApiRequest(exchange, caller, json));
            send(exchange, reply);
        } catch (MeshException e) {
            problems.write(exchange, ProblemWriter.status(e.reason()), e.getMessage());
        } catch (ApiRequest.BodyTooLargeException e) {
            problems.write(exchange, StatusCodes.REQUEST_ENTITY_TOO_LARGE, e.getMessage());
        } catch (Exception e) {
            String errorId = RandomText.lowerAlphanumeric(12);
            LOG.log(Level.ERROR, "error id " + errorId + ": " + route.method() + " " + route.template() + " failed", e);
            problems.write(exchange, new Problem("about:blank", "Internal Server Error", 500,
                    "unexpected failure; the server log has the details under error id " + errorId,
                    exchange.getRequestPath(), errorId));
        }
    }

    private void send(HttpServerExchange exchange, Reply reply) {
        exchange.setStatusCode(reply.status());
        for (Map.Entry<String, String> header : reply.headers().entrySet()) {
            exchange.getResponseHeaders().put(io.undertow.util.HttpString.tryFromString(header.getKey()), header.getValue());
        }
        if (reply.body() == null) {
            exchange.endExchange();
            return;
        }
        if (reply.body() instanceof RawBody raw) {
            exchange.getResponseHeaders().put(Headers.CONTENT_TYPE, raw.contentType());
            exchange.getResponseSender().send(ByteBuffer.wrap(raw.bytes()));
            return;
        }
        exchange.getResponseHeaders().put(Headers.CONTENT_TYPE, "application/json");
        exchange.getResponseSender().send(ByteBuffer.wrap(json.writeValueAsBytes(reply.body())));
    }
}
