package io.meshcontrol.core.policy;

import io.meshcontrol.core.net.IpBlock;
import java.util.List;
import java.util.Map;

/**
 * The {@code autoApprovers} section: who may have routes approved without an administrator.
 *
 * @param routes a prefix (as written) to the approvers of routes inside it
 * @param exitNode the approvers of exit routes ({@code 0.0.0.0/0}, {@code ::/0})
 */
public record AutoApprovers(Map<String, RouteApprovers> routes, List<Alias> exitNode) {

    public static final AutoApprovers NONE = new AutoApprovers(Map.of(), List.of());

    /** The approvers of routes inside {@code prefix}. */
    public record RouteApprovers(IpBlock prefix, List<Alias> approvers) {
        public RouteApprovers {
            approvers = List.copyOf(approvers);
        }
    }

    public AutoApprovers {
        routes = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(routes));
        exitNode = List.copyOf(exitNode);
    }
}
