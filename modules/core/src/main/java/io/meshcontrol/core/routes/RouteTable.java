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
import java.util.Optional;
import java.util.Set;
import java.util.function.LongPredicate;
import java.util.function.ToIntFunction;

/**
 * Which router serves each subnet route: the primary. Several routers may have the same prefix active (high
 * availability); a prefix gets the healthy router with the lowest node id, and keeps it while it stays healthy: a
 * router that goes offline hands its prefixes to the next, and when it returns it does not take them back (a
 * failover is not undone by a flapping router). A prefix without a healthy router has no primary. Exit routes are
 * never primary: every node with them active serves them; which exit nodes clients are steered to is the table's
 * {@link ExitNodeSteering}.
 *
 * <p>Regional routing: when the routers of a prefix have their home relay in more than one DERP region, each region
 * with a healthy router of it gets a primary of its own, elected the same way among that region's routers. A client
 * whose home region has one is steered to it ({@link #primaryRoutesFor}); a client without a region, or in a region
 * without one, uses the tailnet-wide primary. Immutable.
 */
public final class RouteTable {

    public static final RouteTable EMPTY = new RouteTable(Map.of(), Map.of(), ExitNodeSteering.NONE);

    /** No home region: the client has not reported one. */
    public static final int NO_REGION = 0;

    private final Map<IpPrefix, Long> primaries;
    private final Map<Long, List<IpPrefix>> byRouter;
    /** Prefix to region to router, for prefixes whose routers are in more than one region. */
    private final Map<IpPrefix, Map<Integer, Long>> regional;
    private final ExitNodeSteering exits;

    private RouteTable(Map<IpPrefix, Long> primaries, Map<IpPrefix, Map<Integer, Long>> regional,
            ExitNodeSteering exits) {
        this.primaries = Map.copyOf(primaries);
        Map<IpPrefix, Map<Integer, Long>> regionalCopy = new HashMap<>();
        regional.forEach((prefix, byRegion) -> regionalCopy.put(prefix, Map.copyOf(byRegion)));
        this.regional = Map.copyOf(regionalCopy);
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
        return elect(nodes, healthy, node -> NO_REGION, EMPTY);
    }

    /**
     * Elects the primaries among {@code nodes}, keeping each of {@code previous}'s primaries (tailnet-wide and
     * regional) that is still healthy, still has the prefix active and, for a regional one, is still in the region;
     * the other prefixes get the lowest healthy id.
     *
     * @param region a router's home DERP region, {@link #NO_REGION} when it has none
     */
    public static RouteTable elect(Collection<Node> nodes, LongPredicate healthy, ToIntFunction<Node> region,
            RouteTable previous) {
        List<Node> routers = nodes.stream().filter(RouteTable::isSubnetRouter).filter(node -> healthy.test(node.id()))
                .sorted(Comparator.comparingLong(Node::id)).toList();
        Map<IpPrefix, Long> primaries = electAmong(routers, previous.primaries);
        // The regions each prefix has healthy routers in, and the routers of each (prefix, region).
        Map<IpPrefix, Map<Integer, List<Node>>> byRegion = new HashMap<>();
        for (Node router : routers) {
            int home = region.applyAsInt(router);
            if (home != NO_REGION) {
                subnetRoutes(router).forEach(prefix -> byRegion.computeIfAbsent(prefix, k -> new HashMap<>())
                        .computeIfAbsent(home, k -> new ArrayList<>()).add(router));
            }
        }
        Map<IpPrefix, Map<Integer, Long>> regional = new HashMap<>();
        byRegion.forEach((prefix, regions) -> {
            if (regions.size() < 2) {
                return; // one region: the tailnet-wide primary serves everyone
            }
            Map<Integer, Long> kept = previous.regional.getOrDefault(prefix, Map.of());
            Map<Integer, Long> elected = new HashMap<>();
            regions.forEach((home, members) -> elected.put(home, electAmong(members,
                    kept.containsKey(home) ? Map.of(prefix, kept.get(home)) : Map.of()).get(prefix)));
            regional.put(prefix, elected);
        });
        return new RouteTable(primaries, regional, ExitNodeSteering.of(nodes));
    }

    /** For each prefix of {@code routers} (healthy, by id): its {@code kept} router if among them, else the lowest. */
    private static Map<IpPrefix, Long> electAmong(List<Node> routers, Map<IpPrefix, Long> kept) {
        Map<IpPrefix, Long> primaries = new HashMap<>();
        for (Node router : routers) {
            for (IpPrefix prefix : subnetRoutes(router)) {
                if (kept.getOrDefault(prefix, -1L) == router.id()) {
                    primaries.put(prefix, router.id()); // still healthy: keeps it
                }
            }
        }
        routers.forEach(node -> subnetRoutes(node).forEach(prefix -> primaries.putIfAbsent(prefix, node.id())));
        return primaries;
    }

    /** The router a client in {@code region} is steered to for {@code prefix}; empty when none serves it. */
    public Optional<Long> routerFor(IpPrefix prefix, int region) {
        Long regionalRouter = regional.getOrDefault(prefix, Map.of()).get(region);
        return Optional.ofNullable(regionalRouter != null ? regionalRouter : primaries.get(prefix));
    }

    /**
     * The subnet routes a client in {@code region} routes to {@code router}: its tailnet-wide primary routes, less
     * those the client is steered elsewhere for, plus those it is its region's primary for. In
     * {@link RoutePrefixes#ORDER}.
     */
    public List<IpPrefix> primaryRoutesFor(long router, int region) {
        if (regional.isEmpty()) {
            return primaryRoutes(router);
        }
        List<IpPrefix> routes = new ArrayList<>();
        for (IpPrefix prefix : primaries.keySet()) {
            if (routerFor(prefix, region).orElse(-1L) == router) {
                routes.add(prefix);
            }
        }
        return RoutePrefixes.sorted(routes);
    }

    /** Whether any prefix is steered by region: only then does a router's view depend on its viewer's region. */
    public boolean steersByRegion() {
        return !regional.isEmpty();
    }

    /** The regional primaries: prefix to region to router id (only prefixes with routers in several regions). */
    public Map<IpPrefix, Map<Integer, Long>> regionalPrimaries() {
        return regional;
    }

    /** The global exit nodes and what clients are told about exit nodes. */
    public ExitNodeSteering exits() {
        return exits;
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
        // A router whose regional duties changed is seen differently by the clients of those regions.
        Set<IpPrefix> prefixes = new HashSet<>(regional.keySet());
        prefixes.addAll(other.regional.keySet());
        for (IpPrefix prefix : prefixes) {
            Map<Integer, Long> mine = regional.getOrDefault(prefix, Map.of());
            Map<Integer, Long> theirs = other.regional.getOrDefault(prefix, Map.of());
            if (!mine.equals(theirs)) {
                changed.addAll(mine.values());
                changed.addAll(theirs.values());
                Optional.ofNullable(primaries.get(prefix)).ifPresent(changed::add);
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
        return other instanceof RouteTable that && primaries.equals(that.primaries) && regional.equals(that.regional)
                && exits.equals(that.exits);
    }

    @Override
    public int hashCode() {
        return (primaries.hashCode() * 31 + regional.hashCode()) * 31 + exits.hashCode();
    }

    @Override
    public String toString() {
        return "RouteTable" + primaries + regional + exits.marked();
    }
}
