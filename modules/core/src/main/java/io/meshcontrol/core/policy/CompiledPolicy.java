package io.meshcontrol.core.policy;

import io.meshcontrol.core.net.IpBlock;
import io.meshcontrol.core.wire.FilterRule;
import io.meshcontrol.core.wire.RawJson;
import io.meshcontrol.core.wire.SSHPolicy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A policy compiled against one inventory of users and machines: what each machine must be sent. Compilation
 * resolves every alias to a set of machines once; the per-machine answers are computed on first request and kept,
 * so a policy change costs one pass over the rules per kind of machine, not per pair. Thread-safe.
 *
 * <p>The server and {@code svc policy simulate} both use this class, so they cannot disagree.
 */
public final class CompiledPolicy {

    private final Policy policy;
    private final String serverUrl;
    private final NodeIndex index;
    private final List<AccessRule> rules;
    private final PacketFilters filters;
    private final Visibility visibility;
    private final SshPolicies ssh;
    private final NodeCapabilities capabilities;
    private final PerMachine<List<FilterRule>> filterCache;
    private final PerMachine<SSHPolicy> sshCache;

    private CompiledPolicy(Policy policy, NodeIndex index, String serverUrl) {
        this.policy = policy;
        this.serverUrl = serverUrl;
        this.index = index;
        AliasResolver resolver = new AliasResolver(policy, index);
        this.rules = AccessRule.of(policy, resolver, index);
        this.filters = new PacketFilters(rules, index);
        this.visibility = new Visibility(rules, index);
        this.ssh = new SshPolicies(policy, resolver, index, serverUrl);
        this.capabilities = new NodeCapabilities(policy, resolver, index);
        this.filterCache = new PerMachine<>(index.size(), filters::of);
        this.sshCache = new PerMachine<>(index.size(), ssh::of);
    }

    /**
     * @param serverUrl this server's URL, for the address a {@code check} SSH rule sends clients to
     */
    public static CompiledPolicy compile(Policy policy, PolicyInventory inventory, String serverUrl) {
        return new CompiledPolicy(policy, new NodeIndex(inventory), serverUrl);
    }

    /**
     * This policy compiled for this inventory plus {@code appended} machines, whose ids follow every machine's here,
     * with the same users: what a join makes. The same answers as compiling the larger inventory, without building
     * its index from every machine again (at N = 10,000 that was most of a join's cost). This compilation is left as
     * it was.
     */
    public CompiledPolicy withAppended(List<PolicyNode> appended) {
        return new CompiledPolicy(policy, new NodeIndex(index, appended), serverUrl);
    }

    public Policy policy() {
        return policy;
    }

    /** Whether the machine is in the inventory (an unknown machine gets nothing: no peers, an empty filter). */
    public boolean knows(long nodeId) {
        return index.indexOf(nodeId) >= 0;
    }

    /** The packet filter the machine enforces (wire {@code FilterRule}s); empty means it accepts nothing. */
    public List<FilterRule> packetFilter(long nodeId) {
        int node = index.indexOf(nodeId);
        return node < 0 ? List.of() : filterCache.get(node);
    }

    /** Whether {@code a} and {@code b} are peers: either may reach the other. Symmetric. */
    public boolean sees(long a, long b) {
        int from = index.indexOf(a);
        int to = index.indexOf(b);
        return from >= 0 && to >= 0 && from != to && visibility.peers(from).get(to);
    }

    /**
     * Whether {@code nodeId} sees the same machines here as under {@code earlier}, a compilation of the same machines
     * (before a policy change, say): then a map stream need not look at each of its peers again. False when the two
     * index different machines or do not know this one.
     */
    public boolean samePeers(long nodeId, CompiledPolicy earlier) {
        if (earlier == this) {
            return true;
        }
        int node = index.indexOf(nodeId);
        return node >= 0 && index.sameMachines(earlier.index)
                && visibility.peers(node).equals(earlier.visibility.peers(node));
    }

    /**
     * The machines that see any of {@code nodeIds} (seeing is symmetric: each one's peers), as ids in inventory order;
     * null when they are more than {@code limit}. Machines not in the inventory see nothing and are seen by none.
     */
    public long[] seenBy(Collection<Long> nodeIds, int limit) {
        BitSet viewers = new BitSet(index.size());
        int merged = 0;
        for (long id : nodeIds) {
            int node = index.indexOf(id);
            if (node >= 0) {
                viewers.or(visibility.peers(node));
                if (++merged % 64 == 0 && viewers.cardinality() > limit) {
                    return null;
                }
            }
        }
        int count = viewers.cardinality();
        if (count > limit) {
            return null;
        }
        long[] ids = new long[count];
        int at = 0;
        for (int i = viewers.nextSetBit(0); i >= 0; i = viewers.nextSetBit(i + 1)) {
            ids[at++] = index.entry(i).node().id();
        }
        return ids;
    }

    /** How many machines {@code nodeId} sees. */
    public int peerCount(long nodeId) {
        int node = index.indexOf(nodeId);
        return node < 0 ? 0 : visibility.peers(node).cardinality();
    }

    /** The ids of the machines {@code nodeId} sees, in inventory order. */
    public List<Long> peers(long nodeId) {
        int node = index.indexOf(nodeId);
        if (node < 0) {
            return List.of();
        }
        BitSet peers = visibility.peers(node);
        List<Long> ids = new ArrayList<>(peers.cardinality());
        for (int i = peers.nextSetBit(0); i >= 0; i = peers.nextSetBit(i + 1)) {
            ids.add(index.entry(i).node().id());
        }
        return ids;
    }

    /**
     * A machine another may reach, with the rules of its packet filter that let the other in.
     *
     * @param rules port rules of {@code nodeId}'s filter, as it enforces them (all their sources, not only the
     *     reaching machine's addresses)
     */
    public record Reachable(long nodeId, List<FilterRule> rules) {
        public Reachable {
            rules = List.copyOf(rules);
        }
    }

    /**
     * What {@code nodeId} may reach: every other machine whose packet filter has port rules that let one of
     * {@code nodeId}'s addresses in, in inventory order (a router's rules name the subnets it serves, an exit node's
     * the internet). Read from the filters the machines enforce, so it says exactly what their maps say; capability
     * grants open no ports and are left out.
     */
    public List<Reachable> reachableFrom(long nodeId) {
        int node = index.indexOf(nodeId);
        if (node < 0) {
            return List.of();
        }
        List<IpBlock> own = index.entry(node).addresses();
        List<Reachable> reachable = new ArrayList<>();
        for (int other = 0; other < index.size(); other++) {
            if (other == node) {
                continue;
            }
            long otherId = index.entry(other).node().id();
            List<FilterRule> admitting = packetFilter(otherId).stream()
                    .filter(rule -> !rule.dstPorts().isEmpty() && admits(rule, own)).toList();
            if (!admitting.isEmpty()) {
                reachable.add(new Reachable(otherId, admitting));
            }
        }
        return reachable;
    }

    /** Whether a source of the rule (an address, a prefix, a range or {@code *}) covers one of the addresses. */
    private static boolean admits(FilterRule rule, List<IpBlock> addresses) {
        for (String source : rule.srcIps()) {
            if (source.equals("*")) {
                return true;
            }
            if (source.startsWith("cap:")) {
                continue;
            }
            IpBlock block = IpBlock.parse(source);
            if (addresses.stream().anyMatch(block::contains)) {
                return true;
            }
        }
        return false;
    }

    /** The machine's Tailscale SSH policy: the rules it is a destination of (possibly none). */
    public SSHPolicy sshPolicy(long nodeId) {
        int node = index.indexOf(nodeId);
        return node < 0 ? new SSHPolicy(List.of()) : sshCache.get(node);
    }

    /**
     * For an SSH check of {@code src} logging in to {@code dst} as {@code localUser}: how long a successful check
     * holds, when the policy asks for one there (see {@code SshPolicies#checkPeriod}); empty when it does not, or
     * either machine is unknown. The server reads it from its own policy, never from the client's URL.
     */
    public Optional<Duration> sshCheckPeriod(long src, long dst, String localUser) {
        int s = index.indexOf(src);
        int d = index.indexOf(dst);
        return s < 0 || d < 0 ? Optional.empty() : ssh.checkPeriod(s, d, localUser);
    }

    /** Whether {@code capability} is one of Funnel's (the attribute, its ports, its warning), for {@code funnel.enabled}. */
    public static boolean isFunnelCapability(String capability) {
        return NodeCapabilities.isFunnel(capability);
    }

    /** The machine's own capabilities (self {@code CapMap}), sorted by name. */

    public Map<String, List<RawJson>> capMap(long nodeId) {
        int node = index.indexOf(nodeId);
        return node < 0 ? Map.of() : capabilities.of(node);
    }

    /**
     * Which of {@code peer}'s approved routes {@code viewer} may use, in the peer's order: a route is offered when
     * the viewer may send to it, or when traffic from it may reach the viewer (so the answer can go back).
     * Exit routes count as the internet, and so do an app connector's public routes. The seam for the peer's
     * {@code AllowedIPs}; which router is primary for a route is decided elsewhere.
     */
    public List<String> peerRoutes(long viewerId, long peerId) {
        int viewer = index.indexOf(viewerId);
        int peer = index.indexOf(peerId);
        if (viewer < 0 || peer < 0 || viewer == peer) {
            return List.of();
        }
        NodeIndex.Entry router = index.entry(peer);
        List<String> visible = new ArrayList<>();
        for (String route : router.node().approvedRoutes()) {
            IpBlock block = IpBlock.parse(route);
            if (offers(viewer, router, block)) {
                visible.add(route);
            }
        }
        return visible;
    }

    private boolean offers(int viewer, NodeIndex.Entry router, IpBlock route) {
        boolean exit = route.isEverything();
        // An app connector's public routes (the addresses it learned, its apps' public static routes) are where it
        // takes its machines' internet traffic: offered under autogroup:internet, as its filter admits that traffic.
        boolean internet = exit || router.appConnector() && TailnetRanges.inInternet(route);
        // Routers of the same subnet that are peers learn each other's route (the vendor does so, for failover).
        if (!exit && visibility.peers(viewer).get(router.index())
                && index.entry(viewer).subnetRoutes().stream().anyMatch(own -> own.block().equals(route))) {
            return true;
        }
        for (int r = 0; r < rules.size(); r++) {
            AccessRule rule = rules.get(r);
            if (!rule.through(router)) {
                continue;
            }
            if (rule.srcMembers.get(viewer)) {
                for (AccessRule.Destination dst : rule.dsts) {
                    Target target = dst.target();
                    if (target.wildcard() || (internet && target.internet()) || (exit
                            ? target.literals().stream().anyMatch(l -> TailnetRanges.inInternet(l.block()))
                            : target.literals().stream().anyMatch(l -> l.block().overlaps(route)))) {
                        return true;
                    }
                }
            }
            if (!exit && rule.dstTargets.get(viewer) && (rule.src.wildcard()
                    || rule.src.literals().stream().anyMatch(l -> l.block().overlaps(route)))) {
                return true;
            }
        }
        return false;
    }
}
