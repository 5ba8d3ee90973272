package io.meshcontrol.server.http;

import io.meshcontrol.server.metrics.HttpMetrics;
import io.undertow.server.HttpHandler;
import io.undertow.server.HttpServerExchange;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Counts the request under its route template when its response starts, so it sees the status the client got (also
 * one set by a later stage: a refused credential, a 500) and is counted before the client can read the answer; times
 * it from here to then, dispatch included (for a map stream: until the stream starts). An exchange that ends with no
 * response (the client went away) is counted when it ends.
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
        AtomicBoolean counted = new AtomicBoolean();
        exchange.addResponseCommitListener(committed -> record(committed, start, counted));
        exchange.addExchangeCompleteListener((done, nextListener) -> {
            record(done, start, counted);
            nextListener.proceed();
        });
        next.handleRequest(exchange);
    }

    private void record(HttpServerExchange exchange, long start, AtomicBoolean counted) {
        if (counted.compareAndSet(false, true)) {
            metrics.record(method != null ? method : methodLabel(exchange), route, exchange.getStatusCode(), start);
        }
    }

    private static String methodLabel(HttpServerExchange exchange) {
        String method = exchange.getRequestMethod().toString();
        return METHODS.contains(method) ? method : "other";
    }
}
