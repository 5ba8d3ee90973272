package io.meshcontrol.server.metrics;

import io.meshcontrol.core.state.Lease;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.model.registry.PrometheusRegistry;

/**
 * Whether this instance holds the lease of the network's singleton work: with several instances, the one scraped with
 * {@code svc_lease_held 1} reaps, announces expiries, delivers webhooks and streams the audit log, and the epoch tells
 * how often the lease changed hands.
 */
public final class LeaseMetrics {

    public LeaseMetrics(PrometheusRegistry registry, Lease lease) {
        GaugeWithCallback.builder()
                .name("svc_lease_held")
                .help("1 while this instance holds the lease and does its work, 0 otherwise; the instance label is "
                        + "this instance's ID (as GET /version names it)")
                .labelNames("lease", "instance")
                .callback(callback -> callback.call(lease.held() ? 1 : 0, lease.name(), lease.holder()))
                .register(registry);
        GaugeWithCallback.builder()
                .name("svc_lease_epoch")
                .help("The lease's epoch as this instance last took or renewed it: it grows by one each time the "
                        + "lease changes hands")
                .labelNames("lease")
                .callback(callback -> callback.call(lease.epoch(), lease.name()))
                .register(registry);
    }
}
