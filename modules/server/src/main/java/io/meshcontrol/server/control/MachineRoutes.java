package io.meshcontrol.server.control;

import io.meshcontrol.server.http.ApiStyle;
import io.meshcontrol.server.http.RequestPipeline;
import io.undertow.server.HttpHandler;
import io.undertow.server.RoutingHandler;
import java.util.ArrayList;
import java.util.List;

/**
 * The endpoints served over ts2021 ({@code /machine/register}, {@code /machine/map}, ...): method plus Undertow path
 * template to handler, each served through the {@link RequestPipeline} (counted in the HTTP metrics, failures answered
 * with an error id that is in the log). Errors are a short plain-text line ({@link PlainTextErrors}); there is no
 * authentication stage, because the Noise handshake already proved the machine key.
 *
 * <p>Routes may be added while the server runs (each addition publishes a new routing table), so a test can add its
 * own. Every exchange that reaches a handler carries its {@link ControlConnection}.
 */
public final class MachineRoutes {

    /** Machine requests are not authenticated by the pipeline: the transport did it. */
    private static final ApiStyle MACHINE = new ApiStyle(new PlainTextErrors(), null);

    private final RequestPipeline pipeline;
    private final List<Registered> routes = new ArrayList<>();
    private volatile HttpHandler routing;

    private record Registered(String method, String template, HttpHandler handler) {
    }

    public MachineRoutes(RequestPipeline pipeline) {
        this.pipeline = pipeline;
        this.routing = build(List.of());
    }

    /** A handler that may block; see {@link MachineHandler}. */
    public MachineRoutes add(String method, String template, MachineHandler handler) {
        return register(method, template, pipeline.blocking(MACHINE, method, template, false,
                exchange -> handler.handle(exchange, ControlConnection.of(exchange))));
    }

    /**
     * A plain Undertow handler, called on the connection's I/O thread: it must not block (dispatch it if it has to).
     * For endpoints that answer from memory, or that drive their response with non-blocking channels.
     */
    public MachineRoutes addNonBlocking(String method, String template, HttpHandler handler) {
        return register(method, template, pipeline.onIoThread(MACHINE, method, template, handler));
    }

    private synchronized MachineRoutes register(String method, String template, HttpHandler handler) {
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
        return exchange -> {
            exchange.putAttachment(RequestPipeline.REQUESTER, ControlConnection.of(exchange));
            routing.handleRequest(exchange);
        };
    }

    private HttpHandler build(List<Registered> routes) {
        RoutingHandler routing = pipeline.router(MACHINE);
        for (Registered route : routes) {
            routing.add(route.method(), route.template(), route.handler());
        }
        return routing;
    }
}
