package io.meshcontrol.server.http;

import io.meshcontrol.server.metrics.HttpMetrics;
import io.undertow.server.HttpHandler;
import io.undertow.server.RoutingHandler;
import io.undertow.util.AttachmentKey;
import io.undertow.util.StatusCodes;
import java.util.concurrent.ExecutorService;
import java.util.function.Function;

/**
 * The one request pipeline every API is served through ({@code /api/v1} and the other routes of the main listener,
 * {@code /api/v2}, {@code /machine/*} over ts2021): the same small stages in the same order, with only the
 * {@link ApiStyle} (error format, authentication) differing between APIs.
 *
 * <pre>
 * metrics -> worker dispatch -> errors -> authentication -> endpoint
 * </pre>
 *
 * Metrics come first so that they time the whole request and count the status the client finally got; the error
 * stage runs on the worker, inside the dispatch, so that it sees what the endpoint and the authentication throw;
 * authentication runs on the worker because looking up a credential may block. Endpoints that must stay on the I/O
 * thread (protocol switches, answers from memory) skip the dispatch and the authentication.
 */
public final class RequestPipeline {

    /**
     * What the log calls the requester of a failed request, when something knows more than the source address (the
     * ts2021 connection with its machine key).
     */
    public static final AttachmentKey<Object> REQUESTER = AttachmentKey.create(Object.class);
    /** The route label of requests that no route answers, so that raw paths never become label values. */
    public static final String UNMATCHED = "unmatched";

    private final HttpMetrics metrics;
    private final ExecutorService workers;

    /** @param workers where blocking work runs: a virtual-thread-per-task executor */
    public RequestPipeline(HttpMetrics metrics, ExecutorService workers) {
        this.metrics = metrics;
        this.workers = workers;
    }

    /** Where blocking work runs, for a protocol endpoint that dispatches part of its work itself. */
    public ExecutorService workers() {
        return workers;
    }

    /**
     * A route whose endpoint may block: it runs on a virtual thread with the exchange in blocking mode, after the
     * caller was authenticated when {@code authenticated} is set. The exchange ends when the endpoint returns.
     */
    public HttpHandler blocking(ApiStyle api, String method, String template, boolean authenticated,
            HttpHandler endpoint) {
        HttpHandler chain = endpoint;
        if (authenticated) {
            if (api.authentication() == null) {
                throw new IllegalArgumentException(method + " " + template + ": this API has no authentication");
            }
            chain = new AuthenticationStage(api.authentication(), chain);
        }
        chain = new ErrorStage(api.errors(), method, template, chain);
        chain = new WorkerStage(workers, chain);
        return new MetricsStage(metrics, method, template, chain);
    }

    /** A public route whose endpoint runs on the I/O thread and must not block (or dispatches itself). */
    public HttpHandler onIoThread(ApiStyle api, String method, String template, HttpHandler endpoint) {
        return new MetricsStage(metrics, method, template, new ErrorStage(api.errors(), method, template, endpoint));
    }

    /**
     * A routing table for one API: requests for no known path get 404, a known path with another method 405, in the
     * API's error format and counted as route {@value #UNMATCHED}.
     */
    public RoutingHandler router(ApiStyle api) {
        return router(path -> api);
    }

    /** A routing table for the main listener, whose unmatched requests are answered in the style of their path. */
    public RoutingHandler router(ApiStyles styles) {
        return router(styles::forPath);
    }

    private RoutingHandler router(Function<String, ApiStyle> styleOfPath) {
        RoutingHandler routing = new RoutingHandler();
        routing.setFallbackHandler(new MetricsStage(metrics, null, UNMATCHED, exchange -> styleOfPath
                .apply(exchange.getRequestPath()).errors()
                .refuse(exchange, StatusCodes.NOT_FOUND, "no such endpoint: " + exchange.getRequestPath())));
        routing.setInvalidMethodHandler(new MetricsStage(metrics, null, UNMATCHED, exchange -> styleOfPath
                .apply(exchange.getRequestPath()).errors()
                .refuse(exchange, StatusCodes.METHOD_NOT_ALLOWED,
                        exchange.getRequestMethod() + " is not supported on " + exchange.getRequestPath())));
        return routing;
    }
}
