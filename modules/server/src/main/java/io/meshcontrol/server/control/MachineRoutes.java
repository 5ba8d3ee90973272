package io.meshcontrol.server.control;

import io.meshcontrol.core.RandomText;
import io.undertow.server.HttpHandler;
import io.undertow.server.HttpServerExchange;
import io.undertow.server.RoutingHandler;
import io.undertow.util.Headers;
import io.undertow.util.StatusCodes;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import org.xnio.IoUtils;

/**
 * The endpoints served over ts2021 ({@code /machine/register}, {@code /machine/map}, ...): method plus Undertow path
 * template to handler. Requests for anything else get 404, a known path with another method 405, each with a short
 * plain-text body as Tailscale's own servers send.
 *
 * <p>Routes may be added while the server runs (each addition publishes a new routing table), so a test can add its
 * own. Every exchange that reaches a handler carries its {@link ControlConnection}.
 */
public final class MachineRoutes {

    private static final System.Logger LOG = System.getLogger(MachineRoutes.class.getName());

    private final ExecutorService workers;
    private final List<Registered> routes = new ArrayList<>();
    private volatile HttpHandler routing;

    private record Registered(String method, String template, HttpHandler handler) {
    }

    /** @param workers where blocking handlers run: a virtual-thread-per-task executor */
    public MachineRoutes(ExecutorService workers) {
        this.workers = workers;
        this.routing = build(List.of());
    }

    /** A handler that may block; see {@link MachineHandler}. */
    public MachineRoutes add(String method, String template, MachineHandler handler) {
        return addNonBlocking(method, template, new Blocking(handler));
    }

    /**
     * A plain Undertow handler, called on the connection's I/O thread: it must not block (dispatch it if it has to).
     * For endpoints that answer from memory, or that drive their response with non-blocking channels.
     */
    public synchronized MachineRoutes addNonBlocking(String method, String template, HttpHandler handler) {
        for (Registered existing : routes) {
            if (existing.method().equalsIgnoreCase(method) && existing.template().equals(template)) {
                throw new IllegalArgumentException(method + " " + template + " is already registered");
            }
        }
        routes.add(new Registered(method, template, handler));
        routing = build(List.copyOf(routes));
        return this;
    }

    /** The root handler for a ts2021 connection's HTTP/2 server. */
    HttpHandler handler() {
        return exchange -> routing.handleRequest(exchange);
    }

    private static HttpHandler build(List<Registered> routes) {
        RoutingHandler routing = new RoutingHandler();
        for (Registered route : routes) {
            routing.add(route.method(), route.template(), route.handler());
        }
        routing.setFallbackHandler(exchange -> plain(exchange, StatusCodes.NOT_FOUND,
                "no such endpoint: " + exchange.getRequestPath()));
        routing.setInvalidMethodHandler(exchange -> plain(exchange, StatusCodes.METHOD_NOT_ALLOWED,
                exchange.getRequestMethod() + " is not supported on " + exchange.getRequestPath()));
        return routing;
    }

    static void plain(HttpServerExchange exchange, int status, String text) {
        exchange.setStatusCode(status);
        exchange.getResponseHeaders().put(Headers.CONTENT_TYPE, "text/plain; charset=utf-8");
        exchange.getResponseSender().send(text + "\n", StandardCharsets.UTF_8);
    }

    private static boolean clientGone(HttpServerExchange exchange, Exception e) {
        return e instanceof java.nio.channels.ClosedChannelException
                || e instanceof IOException && !exchange.getConnection().isOpen();
    }

    /** Runs a {@link MachineHandler} on a worker with blocking streams and answers what it throws. */
    private final class Blocking implements HttpHandler {

        private final MachineHandler handler;

        Blocking(MachineHandler handler) {
            this.handler = handler;
        }

        @Override
        public void handleRequest(HttpServerExchange exchange) {
            if (exchange.isInIoThread()) {
                exchange.dispatch(workers, this);
                return;
            }
            exchange.startBlocking();
            try {
                handler.handle(exchange, ControlConnection.of(exchange));
            } catch (Exception e) {
                if (clientGone(exchange, e)) {
                    // The client closed the stream or the connection before the answer was written (it gave up
                    // waiting, or went away): a disconnect, not a server error.
                    LOG.log(Level.DEBUG, () -> exchange.getRequestPath() + " from " + ControlConnection.of(exchange)
                            + ": client went away: " + e);
                    return;
                }
                String errorId = RandomText.lowerAlphanumeric(12);
                LOG.log(Level.ERROR, "error id " + errorId + ": " + exchange.getRequestMethod() + " "
                        + exchange.getRequestPath() + " from " + ControlConnection.of(exchange) + " failed", e);
                if (!exchange.isResponseStarted()) {
                    exchange.getResponseHeaders().clear();
                    exchange.setStatusCode(StatusCodes.INTERNAL_SERVER_ERROR);
                    exchange.getResponseHeaders().put(Headers.CONTENT_TYPE, "text/plain; charset=utf-8");
                    byte[] body = ("internal error; the server log has the details under error id " + errorId + "\n")
                            .getBytes(StandardCharsets.UTF_8);
                    try {
                        exchange.getOutputStream().write(body);
                    } catch (IOException ignored) {
                        // the client is gone; nothing left to tell it
                    }
                } else {
                    // Half a response must not look like a whole one. On HTTP/2, closing the exchange's connection
                    // resets this stream only (RST_STREAM CANCEL); the ts2021 connection and its other streams stay.
                    IoUtils.safeClose(exchange.getConnection());
                }
            } finally {
                exchange.endExchange();
            }
        }
    }
}
