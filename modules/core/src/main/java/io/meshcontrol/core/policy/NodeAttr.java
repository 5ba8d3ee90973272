package io.meshcontrol.core.policy;

import io.meshcontrol.core.wire.RawJson;
import java.util.List;
import java.util.Map;

/**
 * One {@code nodeAttrs} entry: capabilities put into the target machines' own CapMap.
 *
 * @param attr capability names without values ({@code randomize-client-port}, {@code nextdns:abc})
 * @param app capabilities with values ({@code tailscale.com/app-connectors: [...]})
 * @param ipPool address pools for the targets; accepted and checked, not used by this server
 */
public record NodeAttr(List<Alias> target, List<String> attr, Map<String, List<RawJson>> app, List<String> ipPool) {

    public NodeAttr {
        target = List.copyOf(target);
        attr = List.copyOf(attr);
        app = Map.copyOf(app);
        ipPool = List.copyOf(ipPool);
    }
}
