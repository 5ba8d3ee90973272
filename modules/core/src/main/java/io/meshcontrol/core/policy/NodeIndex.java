package io.meshcontrol.core.policy;

import io.meshcontrol.core.BoundedMemo;
import io.meshcontrol.core.net.IpBlock;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The inventory arranged for compilation: machines numbered 0..n-1 so that sets of machines are bit sets, with
 * their addresses and routes as {@link IpBlock}s and the lookups the alias resolution needs, built in one pass.
 */
final class NodeIndex {

    /**
     * A machine and what compilation asks of it, precomputed.
     *
     * @param exitNode whether it carries traffic to the internet: an approved exit node, or an app connector
     */
    record Entry(int index, PolicyNode node, PolicyUser user, List<IpBlock> addresses, List<Route> subnetRoutes,
            boolean exitNode) {

        /** Whether it acts as an app connector: a tagged machine running the connector. */
        boolean appConnector() {
            return node.appConnector() && node.isTagged();
        }
    }

    /** An approved subnet route, as written and as a block. */
    record Route(String text, IpBlock block) {
    }

    private final List<Entry> entries;
    private final NodeIdIndexes byId;
    private final Map<Long, PolicyUser> users;
    private final Map<String, PolicyUser> usersByLogin;
    private final Map<String, BitSet> byTag;
    private final Map<Long, BitSet> byUser;
    private final BitSet all;
    private final BitSet tagged;
    private final BitSet untagged;
    private final BitSet exitNodes;
    private final BitSet routers;
    /** Approved subnet routes of every machine, as {@code *} adds them to sources (first seen order). */
    private final List<String> subnetRouteTexts;
    /** Addresses outside the vendor's ranges (a server configured with other prefixes), for {@code *}. */
    private final List<String> foreignAddresses;

    /**
     * Node addresses and routes as blocks, parsed once rather than at every compilation: a compilation runs for every
     * join, over every node, and parsing was a third of it at N = 10,000. The strings are the nodes' own (mostly the
     * same instances from snapshot to snapshot, their hash codes cached), so a lookup costs less than a parse. Bounded:
     * emptied when it outgrows any network the server is meant for (addresses come from the tailnet's pool).
     */
    private static final BoundedMemo<String, IpBlock> PARSED = new BoundedMemo<>(1 << 18);

    private static IpBlock parsed(String text) {
        return PARSED.get(text, IpBlock::parse);
    }

    NodeIndex(PolicyInventory inventory) {
        entries = new ArrayList<>(inventory.nodes().size());
        byId = new NodeIdIndexes(inventory.nodes().size());
        users = new HashMap<>();
        usersByLogin = new HashMap<>();
        byTag = new HashMap<>();
        byUser = new HashMap<>();
        all = new BitSet();
        tagged = new BitSet();
        untagged = new BitSet();
        exitNodes = new BitSet();
        routers = new BitSet();
        subnetRouteTexts = new ArrayList<>();
        foreignAddresses = new ArrayList<>();
        for (PolicyUser user : inventory.users()) {
            users.put(user.id(), user);
            user.logins().forEach(login -> usersByLogin.putIfAbsent(login, user));
        }
        inventory.nodes().forEach(this::add);
    }

    /**
     * {@code base} with {@code appended} machines after its own: the same users, machines whose ids follow every
     * machine of {@code base} (what a join makes). Copies base's lookups (pointers and bit sets, no parsing) rather
     * than building them from every machine again; base itself is left as it was, still answering for its snapshot.
     */
    NodeIndex(NodeIndex base, List<PolicyNode> appended) {
        entries = new ArrayList<>(base.entries.size() + appended.size());
        entries.addAll(base.entries);
        byId = new NodeIdIndexes(base.byId);
        users = base.users; // never changed after construction: the users are the same
        usersByLogin = base.usersByLogin;
        byTag = copied(base.byTag);
        byUser = copied(base.byUser);
        all = (BitSet) base.all.clone();
        tagged = (BitSet) base.tagged.clone();
        untagged = (BitSet) base.untagged.clone();
        exitNodes = (BitSet) base.exitNodes.clone();
        routers = (BitSet) base.routers.clone();
        subnetRouteTexts = new ArrayList<>(base.subnetRouteTexts);
        foreignAddresses = new ArrayList<>(base.foreignAddresses);
        for (PolicyNode node : appended) {
            if (byId.contains(node.id())) {
                throw new IllegalArgumentException("machine " + node.id() + " is already in the index");
            }
            add(node);
        }
    }

    private static <K> Map<K, BitSet> copied(Map<K, BitSet> sets) {
        Map<K, BitSet> copy = new HashMap<>(sets.size() * 2);
        sets.forEach((key, set) -> copy.put(key, (BitSet) set.clone()));
        return copy;
    }

    private void add(PolicyNode node) {
        int index = entries.size();
        List<IpBlock> addresses = new ArrayList<>();
        for (String address : node.addresses()) {
            IpBlock block = parsed(address);
            addresses.add(block);
            if (!TailnetRanges.CGNAT.contains(block) && !TailnetRanges.ULA.contains(block)) {
                foreignAddresses.add(address);
            }
        }
        List<Route> subnets = new ArrayList<>();
        boolean exit = false;
        for (String route : node.approvedRoutes()) {
            IpBlock block = parsed(route);
            if (block.isEverything()) {
                exit = true;
            } else {
                subnets.add(new Route(route, block));
                if (!subnetRouteTexts.contains(route)) {
                    subnetRouteTexts.add(route);
                }
            }
        }
        // An app connector answers for the internet as an exit node does (the client checks its filter for that).
        exit |= node.appConnector() && node.isTagged();
        PolicyUser user = node.isTagged() || node.userId() == null ? null : users.get(node.userId());
        Entry entry = new Entry(index, node, user, List.copyOf(addresses), List.copyOf(subnets), exit);
        entries.add(entry);
        byId.put(node.id(), index);
        all.set(index);
        if (node.isTagged()) {
            tagged.set(index);
            node.tags().forEach(tag -> byTag.computeIfAbsent(tag, t -> new BitSet()).set(index));
        } else if (user != null) {
            untagged.set(index);
            byUser.computeIfAbsent(user.id(), id -> new BitSet()).set(index);
        }
        if (exit) {
            exitNodes.set(index);
        }
        if (!subnets.isEmpty()) {
            routers.set(index);
        }
    }

    int size() {
        return entries.size();
    }

    /** The last {@link #sameMachines} answer: every map stream asks it about the same two indexes after a change. */
    private volatile Comparison lastComparison;

    private record Comparison(NodeIndex other, boolean same) {
    }

    /** Whether {@code other} holds the same machines at the same positions, so that their bit sets line up. */
    boolean sameMachines(NodeIndex other) {
        if (other == this) {
            return true;
        }
        Comparison last = lastComparison;
        if (last != null && last.other == other) {
            return last.same;
        }
        boolean same = entries.size() == other.entries.size();
        for (int i = 0; same && i < entries.size(); i++) {
            same = entries.get(i).node().id() == other.entries.get(i).node().id();
        }
        lastComparison = new Comparison(other, same);
        return same;
    }

    Entry entry(int index) {
        return entries.get(index);
    }

    /** The index of a machine, or -1 when it is not in the inventory. */
    int indexOf(long nodeId) {
        return byId.get(nodeId);
    }

    PolicyUser user(Long id) {
        return id == null ? null : users.get(id);
    }

    PolicyUser userByLogin(String login) {
        return usersByLogin.get(login);
    }

    Iterable<PolicyUser> users() {
        return users.values();
    }

    BitSet all() {
        return all;
    }

    BitSet tagged() {
        return tagged;
    }

    BitSet untagged() {
        return untagged;
    }

    /** Machines that carry traffic to the internet: approved exit nodes and app connectors. */
    BitSet exitNodes() {
        return exitNodes;
    }

    BitSet routers() {
        return routers;
    }

    BitSet withTag(String tag) {
        return byTag.getOrDefault(tag, new BitSet());
    }

    /** A user's own (untagged) machines. */
    BitSet ofUser(long userId) {
        return byUser.getOrDefault(userId, new BitSet());
    }

    List<String> subnetRouteTexts() {
        return subnetRouteTexts;
    }

    List<String> foreignAddresses() {
        return foreignAddresses;
    }
}
