package io.meshcontrol.server.v1;

import io.meshcontrol.api.DerpLatencyReport;
import io.meshcontrol.api.OverviewView;
import io.meshcontrol.core.auth.Caller;
import io.meshcontrol.core.model.Node;
import io.meshcontrol.core.netmap.context.MapContext;
import io.meshcontrol.core.state.ApiKeys;
import io.meshcontrol.core.state.MapContextState;
import io.meshcontrol.core.state.NetworkSnapshot;
import io.meshcontrol.core.state.Nodes;
import io.meshcontrol.core.state.PreAuthKeys;
import io.meshcontrol.core.state.Snapshots;
import io.meshcontrol.core.wire.DERPMap;
import io.meshcontrol.core.wire.Hostinfo;
import io.meshcontrol.core.wire.HostinfoFields;
import io.meshcontrol.core.wire.NetInfo;
import io.meshcontrol.relay.latency.LatencyReport;
import io.meshcontrol.server.http.Reply;
import io.meshcontrol.server.http.Routes;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * {@code GET /api/v1/overview}: counts over the machines, keys and relays, made here so that the console's first page
 * reads one small answer instead of every list. The machine part is counted once per snapshot (and minute, as key
 * expiry moves with time) and shared by every caller until something changes.
 */
public final class OverviewRoutes {

    /** What "soon" means for keys that expire. */
    static final Duration SOON = Duration.ofDays(7);

    private record Counted(NetworkSnapshot snapshot, MapContext context, DERPMap relayMap, long minute,
            OverviewView.Machines machines, List<OverviewView.Relay> relays) {
    }

    private final Snapshots snapshots;
    private final MapContextState context;
    private final PreAuthKeys preAuthKeys;
    private final ApiKeys apiKeys;
    private final Supplier<DERPMap> relayMap;
    private final Supplier<Optional<String>> relayProblem;
    private final Clock clock;
    private volatile Counted counted;

    /**
     * @param relayMap the relay map clients get, whose regions the answer lists
     * @param relayProblem what keeps the embedded relay's STUN from working
     */
    public OverviewRoutes(Snapshots snapshots, MapContextState context, PreAuthKeys preAuthKeys, ApiKeys apiKeys,
            Supplier<DERPMap> relayMap, Supplier<Optional<String>> relayProblem, Clock clock) {
        this.snapshots = snapshots;
        this.context = context;
        this.preAuthKeys = preAuthKeys;
        this.apiKeys = apiKeys;
        this.relayMap = relayMap;
        this.relayProblem = relayProblem;
        this.clock = clock;
    }

    public void register(Routes routes) {
        routes.add("GET", "/api/v1/overview", request -> Reply.ok(overview(request.caller())));
    }

    OverviewView overview(Caller caller) {
        caller.require(Nodes.READ_SCOPE);
        Instant now = clock.instant();
        Counted machines = machines(now);
        Instant soon = now.plus(SOON);
        Integer preAuth = !caller.may(PreAuthKeys.READ_SCOPE) ? null : (int) preAuthKeys.list(caller).stream()
                .map(PreAuthKeys.Listed::key)
                .filter(key -> key.isValid(now) && key.expiresAt().isBefore(soon)).count();
        Integer api = !caller.may(ApiKeys.READ_SCOPE) ? null : (int) apiKeys.list(caller).stream()
                .map(ApiKeys.Listed::key)
                .filter(key -> !key.isExpired(now) && key.expiresAt() != null && key.expiresAt().isBefore(soon)).count();
        return new OverviewView(now, SOON.toHours() + "h", machines.machines(), new OverviewView.Keys(preAuth, api),
                machines.relays(), relayProblem.get().orElse(null));
    }

    /** The machine and relay counts, again only when the snapshot, the map context or the minute changed. */
    private Counted machines(Instant now) {
        NetworkSnapshot snapshot = snapshots.current();
        MapContext mapContext = context.current();
        DERPMap map = relayMap.get();
        long minute = now.getEpochSecond() / 60;
        Counted last = counted;
        if (last != null && last.snapshot() == snapshot && last.context() == mapContext && last.relayMap() == map
                && last.minute() == minute) {
            return last;
        }
        Instant soon = now.plus(SOON);
        int total = 0;
        int online = 0;
        int waiting = 0;
        int outdated = 0;
        int expiring = 0;
        int expired = 0;
        List<NetInfo> measurements = new ArrayList<>();
        for (Node node : snapshot.nodes().values()) {
            total++;
            online += snapshot.isOnline(node.id()) ? 1 : 0;
            waiting += node.authorized() ? 0 : 1;
            if (!node.keyExpiryDisabled() && node.keyExpiry() != null) {
                expired += node.isKeyExpired(now) ? 1 : 0;
                expiring += !node.isKeyExpired(now) && node.keyExpiry().isBefore(soon) ? 1 : 0;
            }
            HostinfoFields facts = Hostinfo.parse(node.hostinfo()).fields();
            if (facts.ipnVersion() != null && !facts.ipnVersion().isEmpty()
                    && !mapContext.clientVersionFor(facts.ipnVersion()).runningLatest()) {
                outdated++;
            }
            if (facts.netInfo() != null) {
                measurements.add(facts.netInfo());
            }
        }
        String latest = mapContext.latestClientVersion() == null || mapContext.latestClientVersion().isEmpty() ? null
                : mapContext.latestClientVersion();
        Counted fresh = new Counted(snapshot, mapContext, map, minute, new OverviewView.Machines(total, online, waiting,
                outdated, latest, expiring, expired), relays(DerpSettingsRoutes.latency(map, measurements)));
        counted = fresh;
        return fresh;
    }

    private static List<OverviewView.Relay> relays(DerpLatencyReport report) {
        boolean anyMeasured = report.regions().stream().anyMatch(region -> region.reporting() > 0);
        return report.regions().stream().map(region -> new OverviewView.Relay(region.regionId(), region.code(),
                region.name(), region.reporting() > 0 ? "up" : anyMeasured ? "down" : "unknown", region.preferredBy(),
                region.reporting(), region.medianMs())).toList();
    }
}
