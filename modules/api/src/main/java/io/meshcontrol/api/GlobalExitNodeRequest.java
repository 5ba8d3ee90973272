package io.meshcontrol.api;

/**
 * Body of {@code POST /api/v1/node/{id}/global-exit-node}, which may also be empty (marks the node, priority kept).
 *
 * @param enabled {@code false} clears the mark; absent or {@code true} marks the node
 * @param priority 0 or more, higher preferred; absent keeps the current one
 */
public record GlobalExitNodeRequest(Boolean enabled, Integer priority) {
}
