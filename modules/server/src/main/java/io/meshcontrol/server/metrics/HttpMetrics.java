package io.meshcontrol.server.metrics;

import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.model.registry.PrometheusRegistry;

/** Request counts and latencies per route template (bounded label values, never raw paths). */
public final class HttpMetrics {

    private final Counter requests;
    private final Histogram latency;

    public HttpMetrics(PrometheusRegistry registry) {
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

    public void record(String method, String route, int status, long startNanos) {
        requests.labelValues(method, route, Integer.toString(status)).inc();
        latency.labelValues(method, route).observe((System.nanoTime() - startNanos) / 1e9);
    }
}
