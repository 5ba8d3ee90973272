package io.meshcontrol.server.http;

import io.meshcontrol.api.MeshClient;
import io.undertow.server.HttpHandler;
import io.undertow.server.RoutingHandler;
import io.undertow.util.Headers;
import io.undertow.util.HttpString;
import io.undertow.util.PathTemplateMatcher;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import tools.jackson.databind.json.JsonMapper;

/** The table of served routes; built once into an Undertow handler, and listed for the OpenAPI check. */
public final class Routes {

    /** Request bodies above this are refused (413); no API document is anywhere near it. */
    public static final long MAX_BODY_BYTES = 4L * 1024 * 1024;
    /**
     * Undertow's own limit on a request body ({@code MAX_ENTITY_SIZE}), a backstop beyond {@link #MAX_BODY_BYTES}:
     * met in the middle of a chunked body it cuts the connection with no answer, so the API's bound, read first,
     * must trip before it does (the input stream buffers ahead of what is asked of it).
     */
    public static final long LISTENER_ENTITY_LIMIT = MAX_BODY_BYTES + 1024 * 1024;

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

    /**
     * The main listener's handler: every route through the request pipeline in its API's style (chosen by path: see
     * {@link ApiStyles}), each answer carrying the server's version.
     */
    public HttpHandler build(RequestPipeline pipeline, ApiStyles styles, JsonMapper json, String version) {
        RoutingHandler routing = pipeline.router(styles);
        for (Route route : routes) {
            ApiStyle style = styles.forPath(route.template());
            routing.add(route.method(), route.template(), route.exchangeHandler() != null
                    ? pipeline.onIoThread(style, route.method(), route.template(), route.exchangeHandler())
                    : pipeline.blocking(style, route.method(), route.template(), route.authenticated(),
                            new ApiEndpoint(route.handler(), json)));
        }
        Map<String, Set<String>> byShape = methodsByShape();
        PathTemplateMatcher<String> allowed = allowedMethods(byShape);
        HttpHandler refuseMethod = routing.getInvalidMethodHandler();
        routing.setInvalidMethodHandler(exchange -> {
            // RFC 9110: a 405 lists the methods the path has
            PathTemplateMatcher.PathMatchResult<String> match = allowed.match(exchange.getRelativePath());
            if (match != null) {
                exchange.getResponseHeaders().put(Headers.ALLOW, match.getValue());
            }
            refuseMethod.handleRequest(exchange);
        });
        HttpHandler noRoute = routing.getFallbackHandler();
        HttpHandler wrongMethod = routing.getInvalidMethodHandler();
        Map<String, Set<String>> literal = new HashMap<>(byShape);
        literal.keySet().removeIf(shape -> shape.indexOf('{') >= 0);
        HttpString versionHeader = HttpString.tryFromString(MeshClient.VERSION_HEADER);
        return exchange -> {
            exchange.getResponseHeaders().put(versionHeader, version);
            if (exchange.getRelativePath().indexOf('?') >= 0) {
                // An encoded '?' (%3F) in a path segment: Undertow's template matching stops at a '?', so
                // "/node/a%3F/approve" would match "/node/{id}" and be refused with a 405. No route has a '?'.
                noRoute.handleRequest(exchange);
                return;
            }
            Set<String> methods = literal.get(exchange.getRelativePath());
            if (methods != null && !methods.contains(exchange.getRequestMethod().toString())) {
                // "GET /node/bulk" is a wrong method for the route "POST /node/bulk", not node "bulk" of
                // "GET /node/{id}": Undertow matches each method's templates alone.
                wrongMethod.handleRequest(exchange);
                return;
            }
            routing.handleRequest(exchange);
        };
    }

    /**
     * Each path shape with the methods it is served for. Templates are keyed by shape ({@code /x/{id}} and
     * {@code /x/{name}} are one path), as the router matches them; a path without a template part is its own shape.
     */
    private Map<String, Set<String>> methodsByShape() {
        Map<String, Set<String>> methods = new LinkedHashMap<>();
        for (Route route : routes) {
            methods.computeIfAbsent(route.template().replaceAll("\\{[^}]*}", "{p}"), shape -> new TreeSet<>())
                    .add(route.method());
        }
        return methods;
    }

    /** The methods of each path shape, as an {@code Allow} header lists them. */
    private static PathTemplateMatcher<String> allowedMethods(Map<String, Set<String>> methods) {
        PathTemplateMatcher<String> matcher = new PathTemplateMatcher<>();
        methods.forEach((template, names) -> matcher.add(template, String.join(", ", names)));
        return matcher;
    }
}
