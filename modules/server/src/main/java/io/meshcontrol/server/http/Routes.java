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

    public List<Route> list() {
        return List.copyOf(routes);
    }

    public HttpHandler build(Authenticator authenticator, JsonMapper json, HttpMetrics metrics, ExecutorService workers,
            String version) {
        RoutingHandler routing = new RoutingHandler();
        for (Route route : routes) {
            routing.add(route.method(), route.template(), new ApiEndpoint(route, authenticator, json, metrics, workers));
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
}
