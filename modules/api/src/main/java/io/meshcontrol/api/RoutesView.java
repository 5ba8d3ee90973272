package io.meshcontrol.api;

import java.util.List;

/**
 * A node's subnet and exit routes ({@code GET /api/v1/node/{id}/routes}, and part of every node view). Prefixes in
 * CIDR form, IPv4 first; an exit node has {@code 0.0.0.0/0} and {@code ::/0}.
 *
 * @param approved what an administrator or an auto-approver allowed (it may include routes not advertised yet)
 * @param available what the node advertises
 * @param serving what peers route through the node now: approved and advertised, and for a subnet route shared by
 *     several routers only on the primary one
 * @param globalExitNode whether the node is marked as a global exit node
 * @param exitNodePriority the mark's priority (higher preferred); 0 when not marked
 * @param homeRegion the DERP region the node reports as its home (clients without priorities pick the closest
 *     suggested exit node by it); 0 when it reported none
 */
public record RoutesView(List<String> approved, List<String> available, List<String> serving, boolean globalExitNode,
        int exitNodePriority, int homeRegion) {

    /** Routes of a node that reported no home region. */
    public RoutesView(List<String> approved, List<String> available, List<String> serving, boolean globalExitNode,
            int exitNodePriority) {
        this(approved, available, serving, globalExitNode, exitNodePriority, 0);
    }
}
