package io.meshcontrol.core.state;

import io.meshcontrol.core.apps.AppConnectors;
import io.meshcontrol.core.model.DnsSettings;
import io.meshcontrol.core.model.VipService;
import io.meshcontrol.core.netmap.context.MapContext;
import io.meshcontrol.core.netmap.context.MapDns;
import io.meshcontrol.core.netmap.context.ServiceHosting;
import io.meshcontrol.core.wire.DERPMap;
import io.meshcontrol.core.wire.DNSConfig;
import java.util.List;
import java.util.Map;
import io.meshcontrol.core.lock.LockMapInfo;
import java.util.Objects;
import java.util.function.UnaryOperator;

/**
 * The map context in force: what every map carries besides nodes. The configuration fixes some of it
 * ({@link MapOptions}); the DNS, the services and the apps follow their saved changes as those commit, and the relay
 * map and the latest client release are put here by whoever learns them (the relay runtime, the release lookup). Each
 * change is published on the change feed ({@link StateChange.MapContextChanged}, carrying the new context) once it
 * is in place, so every map stream sends it again; no one else announces it.
 */
public final class MapContextState {

    private final Snapshots snapshots;
    private final MapOptions options;
    private volatile MapContext current;

    /** Until the relay publishes its map, maps carry an empty one (the embedded region's port is not known yet). */
    MapContextState(String tailnetId, MapOptions options, DnsSettings dns, List<VipService> services,
            AppConnectors apps, Snapshots snapshots) {
        this.snapshots = snapshots;
        this.options = options;
        this.current = new MapContext(tailnetId, options.baseDomain(), dnsConfig(dns), new DERPMap(null,
                Map.of(), false), new ServiceHosting(services), null, options.dialPlan(), null,
                options.httpsCertificates()).withApps(apps);
    }

    /** The context every map is built from now. */
    public MapContext current() {
        return current;
    }

    /** The relay map clients are sent from now on (the relay runtime's, each time its sources change). */
    public void derpMap(DERPMap map) {
        change(context -> context.withDerpMap(map));
    }

    /** The latest stable client release ("1.90.9"); the same release again changes nothing. */
    public void latestClientVersion(String release) {
        change(context -> Objects.equals(release, context.latestClientVersion()) ? context
                : context.withLatestClientVersion(release));
    }

    /** Called by {@link Dns} with the settings a change put in force (under the writer lock). */
    void dns(DnsSettings dns) {
        change(context -> context.withDnsConfig(dnsConfig(dns)));
    }

    /** Called by {@link VipServices} with every service after a saved change (under the writer lock). */
    void services(List<VipService> services) {
        change(context -> context.withServices(new ServiceHosting(services)));
    }

    /** Called by {@link TailnetLock} with what maps say of the lock from now on (under the writer lock). */
    void tailnetLock(LockMapInfo info) {
        change(context -> Objects.equals(info, context.tailnetLock()) ? context : context.withTailnetLock(info));
    }

    /** Called by {@link Apps} with the apps a change put in force (under the writer lock). */
    void apps(AppConnectors apps) {
        change(context -> context.withApps(apps));
    }

    private DNSConfig dnsConfig(DnsSettings dns) {
        return MapDns.of(dns, options.baseDomain(), options.extraRecords());
    }

    /**
     * Puts the changed context in place and publishes it; an operation that answers the context itself changes
     * nothing. Serialised, so the feed carries the contexts in the order they were put in place.
     */
    private synchronized void change(UnaryOperator<MapContext> operation) {
        MapContext next = operation.apply(current);
        if (next == current) {
            return;
        }
        current = next;
        snapshots.mapContextChanged(next);
    }
}
