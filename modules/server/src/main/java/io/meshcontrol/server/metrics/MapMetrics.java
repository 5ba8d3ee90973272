package io.meshcontrol.server.metrics;

import io.meshcontrol.core.netmap.MapStreamMetrics;
import io.prometheus.metrics.core.datapoints.CounterDataPoint;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.model.registry.PrometheusRegistry;

/**
 * Map messages written to clients: how many of each kind, and how long a full map took from reading the request to
 * handing the last byte to the connection. The full-map count is what shows, from the server's side, when a mass
 * reconnect has been served (bench/loadgen reads it for that).
 */
public final class MapMetrics implements MapStreamMetrics {

    private final CounterDataPoint fullMaps;
    private final CounterDataPoint deltas;
    private final CounterDataPoint keepAlives;
    private final Histogram fullMapSeconds;

    public MapMetrics(PrometheusRegistry registry) {
        Counter messages = Counter.builder()
                .name("svc_map_messages_total")
                .help("Map messages written to clients, by kind: full (the first of a stream, or a single map), "
                        + "delta, keepalive")
                .labelNames("kind")
                .register(registry);
        this.fullMaps = messages.labelValues("full");
        this.deltas = messages.labelValues("delta");
        this.keepAlives = messages.labelValues("keepalive");
        this.fullMapSeconds = Histogram.builder()
                .name("svc_map_full_map_seconds")
                .help("Time from reading a map request to having written its full map")
                // The default buckets end at 10 s; a mass reconnect of thousands of nodes is measured in tens.
                .classicUpperBounds(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 30, 60)
                .register(registry);
    }

    @Override
    public void fullMapWritten(long requestNanos) {
        fullMaps.inc();
        fullMapSeconds.observe((System.nanoTime() - requestNanos) / 1e9);
    }

    @Override
    public void deltaWritten() {
        deltas.inc();
    }

    @Override
    public void keepAliveWritten() {
        keepAlives.inc();
    }
}
