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
 * availability); the primary is the one with the lowest node id among the healthy ones, so a router that goes
 * offline hands its prefixes to the next and takes them back when it returns. A prefix without a healthy router
 * has no primary. Exit routes are never primary: every node with them active serves them. Immutable.
 */
public final class RouteTable {

    public static final RouteTable EMPTY = new RouteTable(Map.of());

    private final Map<IpPrefix, Long> primaries;
    private final Map<Long, List<IpPrefix>> byRouter;

    private RouteTable(Map<IpPrefix, Long> primaries) {
        this.primaries = Map.copyOf(primaries);
        Map<Long, List<IpPrefix>> grouped = new HashMap<>();
        primaries.forEach((prefix, id) -> grouped.computeIfAbsent(id, k -> new ArrayList<>()).add(prefix));
        Map<Long, List<IpPrefix>> sorted = new HashMap<>();
        grouped.forEach((id, prefixes) -> sorted.put(id, RoutePrefixes.sorted(prefixes)));
        this.byRouter = Map.copyOf(sorted);
    }

    /**
     * Elects the primaries among {@code nodes}.
     *
     * @param healthy whether a router may serve now (it is online); with high availability off, pass one that
     *     is always true, so the lowest id keeps its prefixes whether online or not
     */
    public static RouteTable elect(Collection<Node> nodes, LongPredicate healthy) {
        Map<IpPrefix, Long> primaries = new HashMap<>();
        nodes.stream().filter(RouteTable::isSubnetRouter).filter(node -> healthy.test(node.id()))
                .sorted(Comparator.comparingLong(Node::id))
                .forEach(node -> subnetRoutes(node).forEach(prefix -> primaries.putIfAbsent(prefix, node.id())));
        return new RouteTable(primaries);
    }

    /** Whether the node has a subnet route active: it takes part in elections. */
    public static boolean isSubnetRouter(Node node) {
        return node.admitted() && !subnetRoutes(node).isEmpty();
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
        if (node.admitted()) {
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
        return other instanceof RouteTable that && primaries.equals(that.primaries);
    }

    @Override
    public int hashCode() {
        return primaries.hashCode();
    }

    @Override
    public String toString() {
        return "RouteTable" + primaries;
    }
}
