package io.meshcontrol.server.http;

import io.undertow.server.HttpHandler;
import io.undertow.server.HttpServerExchange;
import java.util.concurrent.ExecutorService;

/**
 * Moves the request off the I/O thread onto a worker (a virtual thread), puts the exchange in blocking mode, and ends
 * it when the rest of the chain returns. Later stages and the endpoint may block.
 */
final class WorkerStage implements HttpHandler {

    private final ExecutorService workers;
    private final HttpHandler next;

    WorkerStage(ExecutorService workers, HttpHandler next) {
        this.workers = workers;
        this.next = next;
    }

    @Override
    public void handleRequest(HttpServerExchange exchange) throws Exception {
        if (exchange.isInIoThread()) {
            exchange.dispatch(workers, this);
            return;
        }
        exchange.startBlocking();
        try {
            next.handleRequest(exchange);
        } finally {
            exchange.endExchange();
        }
    }
}
