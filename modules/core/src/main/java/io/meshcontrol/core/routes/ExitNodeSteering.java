package io.meshcontrol.core.routes;

import io.meshcontrol.core.model.Node;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * How clients are steered among exit nodes: which exit nodes they are told to suggest, and which node attributes every
 * client gets, from the global exit nodes (spec "Exit node and routing behavior", rules 1 to 3). Clients choose by
 * themselves: the highest {@code Hostinfo.Location.Priority} under {@value #TRAFFIC_STEERING}, equal ones split by a
 * rendezvous hash of their own id and the peer's, else the closest suggested node by DERP region. Immutable.
 *
 * @param marked the id of every approved node marked as a global exit node, to its priority
 */
public record ExitNodeSteering(Map<Long, Integer> marked) {

    /** On an exit node in a peer's view: the client may suggest it ({@code tailscale exit-node suggest}). */
    public static final String SUGGEST_EXIT_NODE = "suggest-exit-node";
    /** On every node while some node is marked: lets the client choose its exit node by itself. */
    public static final String AUTO_EXIT_NODE = "auto-exit-node";
    /** On every node while a marked node has a priority: the client ranks by priority rather than by region. */
    public static final String TRAFFIC_STEERING = "traffic-steering";

    public static final ExitNodeSteering NONE = new ExitNodeSteering(Map.of());

    public ExitNodeSteering {
        marked = Map.copyOf(new TreeMap<>(marked));
    }

    /**
     * The steering the marks of these nodes give. Marks of nodes waiting for approval or suspended count for nothing,
     * nor do marks of nodes that serve no exit route (withdrawn since): a mark on such a node would take
     * {@value #SUGGEST_EXIT_NODE} from every real exit node.
     */
    public static ExitNodeSteering of(Collection<Node> nodes) {
        Map<Long, Integer> marked = new TreeMap<>();
        for (Node node : nodes) {
            if (node.isGlobalExitNode() && node.admitted()
                    && node.activeRoutes().stream().anyMatch(RoutePrefixes::isExit)) {
                marked.put(node.id(), node.globalExitPriority());
            }
        }
        return marked.isEmpty() ? NONE : new ExitNodeSteering(marked);
    }

    /** Whether a mark of this node could change the steering: it is marked, or it is an exit node at all. */
    public static boolean concerns(Node node) {
        return node.isGlobalExitNode() || node.activeRoutes().stream().anyMatch(RoutePrefixes::isExit);
    }

    /** Some node is marked (rule 2). */
    public boolean anyMarked() {
        return !marked.isEmpty();
    }

    /** Some marked node has a priority above 0 (rule 3). */
    public boolean prioritized() {
        return marked.values().stream().anyMatch(priority -> priority > 0);
    }

    /**
     * Rule 1: whether peers see {@value #SUGGEST_EXIT_NODE} on this node. Every exit node (exit routes advertised and
     * approved) carries it, unless some node is marked: then only the marked ones do.
     */
    public boolean suggests(Node peer) {
        if (peer.approvedRoutes().isEmpty()) {
            return false; // most nodes; full maps ask this of every peer
        }
        boolean exitNode = peer.admitted() && peer.activeRoutes().stream().anyMatch(RoutePrefixes::isExit);
        return exitNode && (marked.isEmpty() || marked.containsKey(peer.id()));
    }

    /**
     * Rule 3: the {@code Hostinfo.Location.Priority} peers see on this node: its mark's priority while some marked
     * node has one, else 0 (no {@code Location} is added). Priority 0 is what clients rank last.
     */
    public int locationPriority(Node peer) {
        return !marked.isEmpty() && prioritized() ? marked.getOrDefault(peer.id(), 0) : 0;
    }

    /** Rules 2 and 3: the attributes every node's own {@code CapMap} carries now, sorted. */
    public List<String> selfAttributes() {
        List<String> attributes = new ArrayList<>(2);
        if (anyMarked()) {
            attributes.add(AUTO_EXIT_NODE);
        }
        if (prioritized()) {
            attributes.add(TRAFFIC_STEERING);
        }
        return attributes;
    }

    /** Whether what a peer sees of {@code node} differs between this steering and {@code other}. */
    public boolean seenDifferently(Node node, ExitNodeSteering other) {
        return suggests(node) != other.suggests(node) || locationPriority(node) != other.locationPriority(node);
    }
}
