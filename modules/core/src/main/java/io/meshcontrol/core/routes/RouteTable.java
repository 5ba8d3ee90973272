package io.meshcontrol.core.routes;

import io.meshcontrol.core.model.Node;
import io.meshcontrol.core.net.IpPrefix;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.LongPredicate;

/**
 * Which router serves each subnet route: the primary. Several routers may have the same prefix active (high
 * availability); a prefix gets the healthy router with the lowest node id, and keeps it while it stays healthy: a
 * router that goes offline hands its prefixes to the next, and when it returns it does not take them back (a
 * failover is not undone by a flapping router). A prefix without a healthy router has no primary. Exit routes are
 * never primary: every node with them active serves them; which exit nodes clients are steered to is the table's
 * {@link ExitNodeSteering}. Immutable.
 */
public final class RouteTable {

    public static final RouteTable EMPTY = new RouteTable(Map.of(), ExitNodeSteering.NONE);

    private final Map<IpPrefix, Long> primaries;
    private final Map<Long, List<IpPrefix>> byRouter;
    private final ExitNodeSteering exits;

    private RouteTable(Map<IpPrefix, Long> primaries, ExitNodeSteering exits) {
        this.primaries = Map.copyOf(primaries);
        this.exits = exits;
        Map<Long, List<IpPrefix>> grouped = new HashMap<>();
        primaries.forEach((prefix, id) -> grouped.computeIfAbsent(id, k -> new ArrayList<>()).add(prefix));
        Map<Long, List<IpPrefix>> sorted = new HashMap<>();
        grouped.forEach((id, prefixes) -> sorted.put(id, RoutePrefixes.sorted(prefixes)));
        this.byRouter = Map.copyOf(sorted);
    }

    /**
     * Elects the primaries among {@code nodes} afresh: the lowest healthy id for each prefix.
     *
     * @param healthy whether a router may serve now; with high availability off, pass one that is always true, so
     *     the lowest id keeps its prefixes whether online or not
     */
    public static RouteTable elect(Collection<Node> nodes, LongPredicate healthy) {
        return elect(nodes, healthy, EMPTY);
    }

    /**
     * Elects the primaries among {@code nodes}, keeping each of {@code previous}'s primaries that is still healthy and
     * still has the prefix active; the other prefixes get the lowest healthy id.
     */
    public static RouteTable elect(Collection<Node> nodes, LongPredicate healthy, RouteTable previous) {
        Map<IpPrefix, Long> primaries = new HashMap<>();
        List<Node> routers = nodes.stream().filter(RouteTable::isSubnetRouter).filter(node -> healthy.test(node.id()))
                .sorted(Comparator.comparingLong(Node::id)).toList();
        for (Node router : routers) {
            for (IpPrefix prefix : subnetRoutes(router)) {
                if (previous.primaries.getOrDefault(prefix, -1L) == router.id()) {
                    primaries.put(prefix, router.id()); // still healthy: keeps it
                }
            }
        }
        routers.forEach(node -> subnetRoutes(node).forEach(prefix -> primaries.putIfAbsent(prefix, node.id())));
        return new RouteTable(primaries, ExitNodeSteering.of(nodes));
    }

    /** The global exit nodes and what clients are told about exit nodes. */
    public ExitNodeSteering exits() {
        return exits;
    }

    /** Whether the node has a subnet route active: it takes part in elections. */
    public static boolean isSubnetRouter(Node node) {
        return node.authorized() && !subnetRoutes(node).isEmpty();
    }

    private static List<IpPrefix> subnetRoutes(Node node) {
        return node.activeRoutes().stream().filter(prefix -> !RoutePrefixes.isExit(prefix)).toList();
    }

    /** The subnet routes this node is primary for, in {@link RoutePrefixes#ORDER}; empty when none. */
    public List<IpPrefix> primaryRoutes(long nodeId) {
        return byRouter.getOrDefault(nodeId, List.of());
    }

    /** Every primary: prefix to the id of the node serving it. */
    public Map<IpPrefix, Long> primaries() {
        return primaries;
    }

    /**
     * What {@code node} serves now: its primary routes and, for an exit node, its active exit routes. Peers
     * route these to it (its {@code AllowedIPs} beyond its own addresses).
     */
    public List<IpPrefix> servedBy(Node node) {
        if (node.approvedRoutes().isEmpty()) {
            return List.of(); // most nodes: nothing to compute for every map they appear in
        }
        List<IpPrefix> served = new ArrayList<>(primaryRoutes(node.id()));
        if (node.authorized()) {
            node.activeRoutes().stream().filter(RoutePrefixes::isExit).forEach(served::add);
        }
        return RoutePrefixes.sorted(served);
    }

    /** The nodes whose primary routes differ between this table and {@code other}. */
    public Set<Long> changedRouters(RouteTable other) {
        Set<Long> changed = new HashSet<>();
        Set<Long> ids = new HashSet<>(byRouter.keySet());
        ids.addAll(other.byRouter.keySet());
        for (long id : ids) {
            if (!primaryRoutes(id).equals(other.primaryRoutes(id))) {
                changed.add(id);
            }
        }
        return changed;
    }

    /** Whether the node is primary for anything. */
    public boolean isPrimary(long nodeId) {
        return byRouter.containsKey(nodeId);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof RouteTable that && primaries.equals(that.primaries) && exits.equals(that.exits);
    }

    @Override
    public int hashCode() {
        return primaries.hashCode() * 31 + exits.hashCode();
    }

    @Override
    public String toString() {
        return "RouteTable" + primaries + exits.marked();
    }
}
