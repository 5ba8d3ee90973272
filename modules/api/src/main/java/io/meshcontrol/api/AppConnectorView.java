package io.meshcontrol.api;

import java.util.List;

/**
 * A connector node assigned to an app.
 *
 * @param learnedRoutes routes it learned from its apps' domains (or inside their static routes), approved by the server
 * @param pendingRoutes routes it advertises that are not approved
 */
public record AppConnectorView(String nodeId, String name, List<String> tags, boolean online, int learnedRoutes,
        int pendingRoutes) {
}
