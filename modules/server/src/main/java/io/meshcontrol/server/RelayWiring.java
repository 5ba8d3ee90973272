package io.meshcontrol.server;

import io.meshcontrol.core.state.Network;
import io.meshcontrol.server.metrics.RelayMetrics;
import io.meshcontrol.server.relay.RelayRuntime;
import io.meshcontrol.server.relay.VerifyRoute;
import io.meshcontrol.server.v1.DerpSettingsRoutes;

/**
 * Relaying: the embedded relay and the DERP map sources ({@link RelayRuntime}, started once the main listener is
 * bound), {@code /verify} for external derpers, the relay's metrics and the DERP settings routes.
 */
final class RelayWiring {

    private RelayWiring() {
    }

    static RelayRuntime create(Wiring w) {
        Network network = w.network();
        // External derpers ask here whether a client may relay (their --verify-client-url), relay on or off.
        new VerifyRoute(network.snapshots()).register(w.routes());
        RelayRuntime relay = RelayRuntime.create(w.settings().relaySetup(), network.savedDerpSettings(), network.snapshots(),
                w.routes(), w.clock(), network.fetchedDocuments(), w.singleton());
        RelayMetrics.register(w.registry(), () -> relay.relay().derp());
        new DerpSettingsRoutes(relay.configuration(), relay.relay(), network.snapshots()).register(w.routes());
        return relay;
    }
}
