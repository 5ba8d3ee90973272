package io.meshcontrol.server.metrics;

import io.meshcontrol.relay.derp.DerpServer;
import io.meshcontrol.relay.derp.RelayStats;
import io.prometheus.metrics.core.metrics.CounterWithCallback;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.util.function.Supplier;

/** The embedded relay's counters, read from the relay when scraped. */
public final class RelayMetrics {

    private static final RelayStats EMPTY = new RelayStats();

    private RelayMetrics() {
    }

    /** @param relay the relay server, or null while the relay was never on (everything reads 0) */
    public static void register(PrometheusRegistry registry, Supplier<DerpServer> relay) {
        Supplier<RelayStats> statsNow = () -> relay.get() == null ? EMPTY : relay.get().stats();
        GaugeWithCallback.builder()
                .name("svc_derp_clients")
                .help("DERP clients connected to the embedded relay (handshake done)")
                .callback(callback -> callback.call(relay.get() == null ? 0 : relay.get().clientCount()))
                .register(registry);
        CounterWithCallback.builder()
                .name("svc_derp_packets_forwarded_total")
                .help("Packets the embedded relay queued for a connected destination")
                .callback(callback -> callback.call(statsNow.get().forwarded.sum()))
                .register(registry);
        CounterWithCallback.builder()
                .name("svc_derp_packets_dropped_total")
                .help("Packets the embedded relay dropped, by Tailscale's reason names")
                .labelNames("reason")
                .callback(callback -> {
                    callback.call(statsNow.get().droppedUnknownDestination.sum(), "unknown_dest");
                    callback.call(statsNow.get().droppedQueueHead.sum(), "queue_head");
                })
                .register(registry);
        CounterWithCallback.builder()
                .name("svc_derp_packets_mesh_total")
                .help("Packets the embedded relay sent on to another relay of its mesh (out) or took from one (in)")
                .labelNames("direction")
                .callback(callback -> {
                    callback.call(statsNow.get().forwardedToMesh.sum(), "out");
                    callback.call(statsNow.get().forwardedFromMesh.sum(), "in");
                })
                .register(registry);
        CounterWithCallback.builder()
                .name("svc_derp_clients_refused_total")
                .help("DERP clients refused at the handshake because their node key is unknown (verify_clients)")
                .callback(callback -> callback.call(statsNow.get().refusedClients.sum()))
                .register(registry);
    }
}
