package io.meshcontrol.server;

import io.meshcontrol.core.config.HostPort;
import io.meshcontrol.core.state.Network;
import io.meshcontrol.server.metrics.DebugPages;
import io.meshcontrol.server.metrics.DerpClientsPage;
import io.meshcontrol.server.metrics.MetricsListener;
import io.meshcontrol.server.metrics.RoutesPage;
import io.meshcontrol.server.relay.RelayRuntime;
import io.undertow.server.HttpHandler;
import java.util.HashMap;
import java.util.Map;

/** The metrics listener ({@code metrics_listen_addr}): Prometheus metrics and the debug pages. */
final class MetricsWiring {

    private MetricsWiring() {
    }

    /** Starts the listener; null when {@code metrics_listen_addr} is not set. */
    static MetricsListener start(Wiring w, ControlWiring control, RelayRuntime relay) {
        ServerSettings settings = w.settings();
        if (settings.metricsHost() == null) {
            return null;
        }
        Network network = w.network();
        Map<String, HttpHandler> debugPages = new HashMap<>(Map.of("/debug/derp-clients/",
                new DerpClientsPage(() -> relay.relay().active().orElse(null), network.snapshots(), w.clock())));
        debugPages.putAll(new DebugPages(new DebugPages.Sources(settings.version(), w.clock(), network,
                control.mapSessions(), control.access())).handlers(Map.of(
                "/debug/routes/", "per-region and tailnet-wide route primaries",
                "/debug/derp-clients/", "machines connected to the embedded relay")));
        debugPages.put("/debug/routes/", new RoutesPage(network.routeElection(), network.snapshots()));
        return MetricsListener.start(new HostPort(settings.metricsHost(), settings.metricsPort()),
                settings.listener(), w.registry(), debugPages, settings.debugAccess());
    }
}
