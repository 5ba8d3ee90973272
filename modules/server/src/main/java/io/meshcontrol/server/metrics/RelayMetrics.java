package io.meshcontrol.server.metrics;

import io.meshcontrol.relay.derp.DerpServer;
import io.meshcontrol.relay.derp.RelayStats;
import io.prometheus.metrics.core.metrics.CounterWithCallback;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.model.registry.PrometheusRegistry;

/** The embedded relay's counters, read from the relay when scraped. */
public final class RelayMetrics {

    private RelayMetrics() {
    }

    public static void register(PrometheusRegistry registry, DerpServer relay) {
        RelayStats stats = relay.stats();
        GaugeWithCallback.builder()
                .name("svc_derp_clients")
                .help("DERP clients connected to the embedded relay (handshake done)")
                .callback(callback -> callback.call(relay.clientCount()))
                .register(registry);
        CounterWithCallback.builder()
                .name("svc_derp_packets_forwarded_total")
                .help("Packets the embedded relay queued for a connected destination")
                .callback(callback -> callback.call(stats.forwarded.sum()))
                .register(registry);
        CounterWithCallback.builder()
                .name("svc_derp_packets_dropped_total")
                .help("Packets the embedded relay dropped, by Tailscale's reason names")
                .labelNames("reason")
                .callback(callback -> {
                    callback.call(stats.droppedUnknownDestination.sum(), "unknown_dest");
                    callback.call(stats.droppedQueueHead.sum(), "queue_head");
                })
                .register(registry);
        CounterWithCallback.builder()
                .name("svc_derp_clients_refused_total")
                .help("DERP clients refused at the handshake because their node key is unknown (verify_clients)")
                .callback(callback -> callback.call(stats.refusedClients.sum()))
                .register(registry);
    }
}
