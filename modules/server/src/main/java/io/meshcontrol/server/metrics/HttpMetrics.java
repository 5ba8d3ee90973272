package io.meshcontrol.server.metrics;

import io.meshcontrol.server.listener.PublicListener;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.CounterWithCallback;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.model.registry.PrometheusRegistry;

/** Request counts and latencies per route template (bounded label values, never raw paths). */
public final class HttpMetrics {

    private final PrometheusRegistry registry;
    private final Counter requests;
    private final Histogram latency;

    public HttpMetrics(PrometheusRegistry registry) {
        this.registry = registry;
        this.requests = Counter.builder()
                .name("svc_http_requests_total")
                .help("HTTP requests answered, by method, route template and status")
                .labelNames("method", "route", "status")
                .register(registry);
        this.latency = Histogram.builder()
                .name("svc_http_request_duration_seconds")
                .help("Time to answer an HTTP request, by method and route template")
                .labelNames("method", "route")
                .register(registry);
    }

    /** Connection gauges of the main listener; call once. */
    public void watch(PublicListener listener) {
        GaugeWithCallback.builder()
                .name("svc_http_open_connections")
                .help("Connections the main listener holds that have not switched to ts2021 or DERP")
                .callback(callback -> callback.call(listener.openConnections()))
                .register(registry);
        CounterWithCallback.builder()
                .name("svc_http_refused_connections")
                .help("Connections closed on arrival because their address held listener.max_connections_per_address")
                .callback(callback -> callback.call(listener.refusedConnections()))
                .register(registry);
    }

    public void record(String method, String route, int status, long startNanos) {
        requests.labelValues(method, route, Integer.toString(status)).inc();
        latency.labelValues(method, route).observe((System.nanoTime() - startNanos) / 1e9);
    }
}
