package io.meshcontrol.server.http;

import io.meshcontrol.server.metrics.HttpMetrics;
import io.undertow.server.HttpHandler;
import io.undertow.server.HttpServerExchange;
import java.util.Set;

/**
 * Counts the request under its route template once the exchange completes, so it sees the status the client got
 * (also one set by a later stage: a refused credential, a 500), and times it from here, dispatch included.
 */
final class MetricsStage implements HttpHandler {

    /** Methods that are label values as they are; any other a client sends to an unmatched path counts as "other". */
    private static final Set<String> METHODS = Set.of("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS");

    private final HttpMetrics metrics;
    private final String method;
    private final String route;
    private final HttpHandler next;

    /** @param method the route's method, or null to take the request's (for requests no route matched) */
    MetricsStage(HttpMetrics metrics, String method, String route, HttpHandler next) {
        this.metrics = metrics;
        this.method = method;
        this.route = route;
        this.next = next;
    }

    @Override
    public void handleRequest(HttpServerExchange exchange) throws Exception {
        long start = System.nanoTime();
        exchange.addExchangeCompleteListener((done, nextListener) -> {
            metrics.record(method != null ? method : methodLabel(done), route, done.getStatusCode(), start);
            nextListener.proceed();
        });
        next.handleRequest(exchange);
    }

    private static String methodLabel(HttpServerExchange exchange) {
        String method = exchange.getRequestMethod().toString();
        return METHODS.contains(method) ? method : "other";
    }
}
