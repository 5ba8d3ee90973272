package io.meshcontrol.server.relay;

import io.meshcontrol.core.address.EgressGuard;
import io.meshcontrol.core.config.MeshConfig;
import io.meshcontrol.relay.map.MapUrlFetcher;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * Where the DERP map comes from besides the embedded relay: the defaults of the
 * runtime DERP settings ({@code derp.urls}, {@code derp.auto_update_enabled}, {@code derp.update_frequency}),
 * the map files ({@code derp.paths}, file only), the guard on fetching URLs ({@code egress.*}) and how host names
 * are resolved (map URLs, {@code /bootstrap-dns}).
 */
public record DerpMapSettings(List<String> urls, List<Path> paths, boolean autoUpdate, Duration updateFrequency,
                       EgressGuard egress, MapUrlFetcher.Resolver resolver) {

    public DerpMapSettings {
        urls = List.copyOf(urls);
        paths = List.copyOf(paths);
    }

    public static DerpMapSettings from(MeshConfig config, MapUrlFetcher.Resolver resolver) {
        MeshConfig.Derp derp = config.derp();
        return new DerpMapSettings(derp.urls(), derp.paths(), derp.autoUpdateEnabled(), derp.updateFrequency(),
                new EgressGuard(config.egress().denyPrivateTargets(), config.egress().allowLoopbackTargets()),
                resolver);
    }
}
