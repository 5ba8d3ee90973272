package io.meshcontrol.server.v1;

import io.meshcontrol.api.DerpLatencyReport;
import io.meshcontrol.api.DerpRefreshResult;
import io.meshcontrol.api.DerpRelayView;
import io.meshcontrol.api.DerpSettingsView;
import io.meshcontrol.core.GoDuration;
import io.meshcontrol.core.MeshException;
import io.meshcontrol.core.model.DerpSettings;
import io.meshcontrol.core.model.Node;
import io.meshcontrol.core.state.Nodes;
import io.meshcontrol.core.state.Snapshots;
import io.meshcontrol.core.wire.DERPMap;
import io.meshcontrol.core.wire.Hostinfo;
import io.meshcontrol.core.wire.NetInfo;
import io.meshcontrol.relay.latency.LatencyReport;
import io.meshcontrol.server.http.Reply;
import io.meshcontrol.server.http.Routes;
import io.meshcontrol.server.relay.DerpConfiguration;
import io.meshcontrol.server.relay.EmbeddedRelay;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@code /api/v1/derp}: the DERP settings with an ETag for conditional writes, a reset to the configuration file's
 * settings, a refresh of the map sources, and the latency report.
 */
public final class DerpSettingsRoutes {

    private final DerpConfiguration derp;
    private final EmbeddedRelay relay;
    private final Snapshots snapshots;

    /** @param relay the embedded relay, whose STUN state the settings answer shows */
    public DerpSettingsRoutes(DerpConfiguration derp, EmbeddedRelay relay, Snapshots snapshots) {
        this.derp = derp;
        this.relay = relay;
        this.snapshots = snapshots;
    }

    public void register(Routes routes) {
        routes.add("GET", "/api/v1/derp", request -> reply(derp.get(request.caller())));
        routes.add("PUT", "/api/v1/derp", request -> {
            DerpSettingsView body = request.requiredBody(DerpSettingsView.class);
            DerpSettings proposed = fromView(body, derp.defaults());
            return reply(derp.set(request.caller(), proposed, request.header("If-Match").orElse(null)));
        });
        routes.add("DELETE", "/api/v1/derp", request ->
                reply(derp.reset(request.caller(), request.header("If-Match").orElse(null))));
        routes.add("POST", "/api/v1/derp/refresh", request -> Reply.ok(new DerpRefreshResult(
                derp.refresh(request.caller()))));
        routes.add("GET", "/api/v1/derp/latency", request -> {
            request.caller().require(Nodes.READ_SCOPE);
            return Reply.ok(latency());
        });
    }

    private DerpLatencyReport latency() {
        List<NetInfo> reports = new ArrayList<>();
        for (Node node : snapshots.current().nodes().values()) {
            NetInfo info = Hostinfo.parse(node.hostinfo()).fields().netInfo();
            if (info != null) {
                reports.add(info);
            }
        }
        return latency(derp.map(), reports);
    }

    /** The latency report of {@code map}'s regions from the machines' measurements (also the overview's). */
    static DerpLatencyReport latency(DERPMap map, List<NetInfo> reports) {
        return new DerpLatencyReport(LatencyReport.of(map, reports).stream()
                .map(r -> new DerpLatencyReport.Region(r.regionId(), r.code(), r.name(), r.preferredBy(), r.reporting(),
                        r.medianMillis(), r.p90Millis()))
                .toList());
    }

    private Reply reply(DerpConfiguration.Current current) {
        return new Reply(200, view(current.settings(), relay.stunProblem().orElse(null)),
                Map.of("ETag", current.etag()));
    }

    static DerpSettingsView view(DerpSettings s, String stunUnavailable) {
        return new DerpSettingsView(s.urls(), s.autoUpdate(), GoDuration.format(s.updateFrequency()), s.relayEnabled(),
                s.ipv4() == null ? "" : s.ipv4(), s.ipv6() == null ? "" : s.ipv6(), s.verifyClients(), s.stunEnabled(),
                s.stunListenAddr(), s.relays().stream()
                        .map(r -> new DerpRelayView(r.regionId(), r.code(), r.host(), r.ipv4())).toList(),
                stunUnavailable);
    }

    /**
     * The settings a {@code PUT} body asks for: what it leaves out comes from the configuration file
     * ({@code defaults}), except {@code verifyClients}, which is then on (the spec's rule, so that forgetting it never
     * opens the relay). An empty {@code ipv4}/{@code ipv6} clears the address.
     */
    static DerpSettings fromView(DerpSettingsView v, DerpSettings defaults) {
        Duration frequency = defaults.updateFrequency();
        if (v.updateFrequency() != null) {
            try {
                frequency = GoDuration.parse(v.updateFrequency());
            } catch (IllegalArgumentException e) {
                throw MeshException.invalid("updateFrequency \"" + v.updateFrequency()
                        + "\" is not a duration such as 24h or 90m");
            }
        }
        List<DerpSettings.CustomRelay> relays = new ArrayList<>();
        for (DerpRelayView r : v.relays() == null ? List.<DerpRelayView>of() : v.relays()) {
            if (r == null || r.regionId() == null) {
                throw MeshException.invalid("every relay needs a regionId");
            }
            relays.add(new DerpSettings.CustomRelay(r.regionId(), r.code(), r.host(),
                    r.ipv4() == null || r.ipv4().isBlank() ? null : r.ipv4()));
        }
        return new DerpSettings(
                v.urls() == null ? defaults.urls() : v.urls().stream().filter(u -> u != null && !u.isBlank()).toList(),
                v.autoUpdate() == null ? defaults.autoUpdate() : v.autoUpdate(),
                frequency,
                v.relayEnabled() == null ? defaults.relayEnabled() : v.relayEnabled(),
                address(v.ipv4(), defaults.ipv4()),
                address(v.ipv6(), defaults.ipv6()),
                v.verifyClients() == null || v.verifyClients(),
                v.stunEnabled() == null ? defaults.stunEnabled() : v.stunEnabled(),
                v.stunListenAddr() == null ? defaults.stunListenAddr() : v.stunListenAddr(),
                relays);
    }

    private static String address(String given, String configured) {
        if (given == null) {
            return configured;
        }
        return given.isBlank() ? null : given.trim();
    }
}
