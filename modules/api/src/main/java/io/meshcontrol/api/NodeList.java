package io.meshcontrol.api;

import java.util.List;

/** {@code GET /api/v1/node}. */
public record NodeList(List<NodeView> nodes) {
}
