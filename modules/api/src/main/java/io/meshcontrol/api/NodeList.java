package io.meshcontrol.api;

import java.util.List;

/**
 * {@code GET /api/v1/node}.
 *
 * @param nodes the nodes that match the query, in its order; one page of them when it asked for one
 * @param total how many nodes match the query in all (more than {@code nodes} holds when paged); absent from an
 *     older server's answer
 */
public record NodeList(List<NodeView> nodes, Integer total) {

    /** All of them: as many as there are. */
    public NodeList(List<NodeView> nodes) {
        this(nodes, nodes.size());
    }
}
