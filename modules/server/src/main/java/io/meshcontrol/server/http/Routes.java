package io.meshcontrol.server.http;

import io.meshcontrol.api.MeshClient;
import io.meshcontrol.server.metrics.HttpMetrics;
import io.undertow.server.HttpHandler;
import io.undertow.server.RoutingHandler;
import io.undertow.util.HttpString;
import io.undertow.util.StatusCodes;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import tools.jackson.databind.json.JsonMapper;

/** The table of served routes; built once into an Undertow handler, and listed for the OpenAPI check. */
public final class Routes {

    /** Request bodies above this are refused (413); no API document is anywhere near it. */
    public static final long MAX_BODY_BYTES = 4L * 1024 * 1024;

    private final List<Route> routes = new ArrayList<>();

    /** A route that needs a credential. */
    public Routes add(String method, String template, ApiHandler handler) {
        routes.add(new Route(method, template, true, handler));
        return this;
    }

    /** A route anyone may call: version, health, documentation. */
    public Routes addPublic(String method, String template, ApiHandler handler) {
        routes.add(new Route(method, template, false, handler));
        return this;
    }

    /**
     * A public route that gets the raw Undertow exchange, on the I/O thread, for protocol endpoints that an API
     * operation cannot express (a protocol switch). It is counted in the HTTP metrics like every route.
     */
    public Routes addExchange(String method, String template, HttpHandler handler) {
        routes.add(new Route(method, template, false, null, handler));
        return this;
    }

    public List<Route> list() {
        return List.copyOf(routes);
    }

    public HttpHandler build(Authenticator authenticator, JsonMapper json, HttpMetrics metrics, ExecutorService workers,
            String version) {
        RoutingHandler routing = new RoutingHandler();
        for (Route route : routes) {
            routing.add(route.method(), route.template(), route.exchangeHandler() != null
                    ? counted(route, metrics)
                    : new ApiEndpoint(route, authenticator, json, metrics, workers));
        }
        ProblemWriter problems = new ProblemWriter(json);
        routing.setFallbackHandler(exchange -> {
            metrics.record(exchange.getRequestMethod().toString(), "unmatched", StatusCodes.NOT_FOUND, System.nanoTime());
            problems.write(exchange, StatusCodes.NOT_FOUND, "no such endpoint: " + exchange.getRequestPath());
        });
        routing.setInvalidMethodHandler(exchange -> problems.write(exchange, StatusCodes.METHOD_NOT_ALLOWED,
                exchange.getRequestMethod() + " is not supported on " + exchange.getRequestPath()));
        HttpString versionHeader = HttpString.tryFromString(MeshClient.VERSION_HEADER);
        return exchange -> {
            exchange.getResponseHeaders().put(versionHeader, version);
            routing.handleRequest(exchange);
        };
    }

    private static HttpHandler counted(Route route, HttpMetrics metrics) {
        return exchange -> {
            long start = System.nanoTime();
            exchange.addExchangeCompleteListener((done, next) -> {
                metrics.record(route.method(), route.template(), done.getStatusCode(), start);
                next.proceed();
            });
            route.exchangeHandler().handleRequest(exchange);
        };
    }
}
