package io.meshcontrol.api;

import java.util.List;

/**
 * Body of {@code POST /api/v1/debug/node} (development only, {@code debug.node_api_enabled}): a machine with no
 * client behind it, registered for {@code user}.
 *
 * @param name its host name
 * @param nodeKey its node key ({@code nodekey:...}), or null for a new random one
 * @param routes subnet routes it advertises, or null for none
 */
public record DebugNodeRequest(String user, String name, String nodeKey, List<String> routes) {
}
