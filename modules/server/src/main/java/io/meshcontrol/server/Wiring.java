package io.meshcontrol.server;

import io.meshcontrol.core.state.Lease;
import io.meshcontrol.core.state.Network;
import io.meshcontrol.server.http.FailedCredentials;
import io.meshcontrol.server.http.Routes;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.time.Clock;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ScheduledExecutorService;
import tools.jackson.databind.json.JsonMapper;

/**
 * What every wiring part of {@link MeshServer} builds on ({@link ControlWiring}, {@link RelayWiring},
 * {@link ApiWiring}, {@link ConsoleWiring}, {@link ListenerWiring}, {@link MetricsWiring}). The parts pick the few
 * services of {@code network} each class they build uses; below them only wiring of its own ({@code VendorApi}) and
 * views of the whole state (the debug pages, housekeeping) take the whole network.
 *
 * @param routes the one route table of the main listener, which every part registers on
 * @param registry the Prometheus metrics the metrics listener serves
 * @param housekeeping runs the timed jobs (expiry, ephemeral nodes, router probes, release lookups, challenge records)
 * @param workers the request threads
 * @param failedCredentials the back-off of addresses that send bad credentials, on both APIs and the console
 * @param json the one mapper of API answers and error bodies
 * @param singleton the lease of the network's singleton work: fetches for the whole network run where it is held
 */
record Wiring(ServerSettings settings, Network network, Clock clock, Routes routes, PrometheusRegistry registry,
              ScheduledExecutorService housekeeping, ExecutorService workers, FailedCredentials failedCredentials,
              JsonMapper json, Lease singleton) {
}
