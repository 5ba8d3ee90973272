package io.meshcontrol.core.state;

import io.meshcontrol.core.key.NodePublicKey;
import io.meshcontrol.core.model.Node;
import io.meshcontrol.core.model.User;
import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Arrays;
import java.util.Collection;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The nodes (with whether each holds a map stream) and users as of one moment, immutable. Map building reads these
 * instead of the database.
 *
 * <p>A new snapshot shares all but a short path of its maps with the one it came from, so a change costs O(log n),
 * not a copy of every node. Each node carries the version of the snapshot that last changed it, which is all a map
 * session needs to remember per peer (see {@code MapSessionState}).
 */
public final class NetworkSnapshot {

    /**
     * A node as the snapshot holds it.
     *
     * @param online whether it holds a map stream now
     * @param version the snapshot version that last changed its row or its online state
     * @param rowVersion the snapshot version that last changed its row other than its last-seen time: a peer whose
     *     {@code rowVersion} a client has seen differs from what the client holds in online state and last seen at
     *     most, which a small patch can say
     */
    public record NodeEntry(Node node, boolean online, long version, long rowVersion) {
    }

    private final long version;
    private final long rowsVersion;
    private final PersistentMap<Long, NodeEntry> entries;
    private final PersistentMap<Long, User> users;
    private final PersistentMap<NodePublicKey, Long> idsByKey;
    private Map<Long, Node> nodesView;
    private List<NodeEntry> inIdOrder;
    /** The node ids, sorted; shared with the snapshots made from this one while no node is added or removed. */
    private volatile long[] idOrder;

    private NetworkSnapshot(long version, long rowsVersion, PersistentMap<Long, NodeEntry> entries,
            PersistentMap<Long, User> users, PersistentMap<NodePublicKey, Long> idsByKey) {
        this(version, rowsVersion, entries, users, idsByKey, null);
    }

    private NetworkSnapshot(long version, long rowsVersion, PersistentMap<Long, NodeEntry> entries,
            PersistentMap<Long, User> users, PersistentMap<NodePublicKey, Long> idsByKey, long[] idOrder) {
        this.version = version;
        this.rowsVersion = rowsVersion;
        this.entries = entries;
        this.users = users;
        this.idsByKey = idsByKey;
        this.idOrder = idOrder;
    }

    /** A snapshot of these nodes (all offline) and users, every node at {@code version}. */
    public static NetworkSnapshot of(long version, Collection<Node> nodes, Collection<User> users) {
        PersistentMap<Long, NodeEntry> entries = PersistentMap.empty();
        PersistentMap<NodePublicKey, Long> keys = PersistentMap.empty();
        for (Node node : nodes) {
            entries = entries.with(node.id(), new NodeEntry(node, false, version, version));
            keys = keys.with(node.nodeKey(), node.id());
        }
        PersistentMap<Long, User> byId = PersistentMap.empty();
        for (User user : users) {
            byId = byId.with(user.id(), user);
        }
        return new NetworkSnapshot(version, version, entries, byId, keys);
    }

    /** Increases with every applied change. */
    public long version() {
        return version;
    }

    /**
     * The version that last changed a user or a node's row other than its last-seen time (or touched a node): two
     * snapshots with the same {@code rowsVersion} differ at most in online states and last-seen times.
     */
    public long rowsVersion() {
        return rowsVersion;
    }

    /**
     * Every node entry in increasing id order: made once per snapshot when first asked for (full maps list their
     * peers in this order, and many are built from the same snapshot). The sorted ids are carried over to the
     * snapshots of presence and row changes, so that a mass reconnect, which makes a snapshot per stream, does not
     * sort the network again for each full map.
     */
    public List<NodeEntry> entriesInIdOrder() {
        List<NodeEntry> ordered = inIdOrder;
        if (ordered == null) {
            long[] ids = sortedIds();
            NodeEntry[] array = new NodeEntry[ids.length];
            for (int i = 0; i < ids.length; i++) {
                array[i] = entries.get(ids[i]);
            }
            ordered = List.of(array);
            inIdOrder = ordered; // racy but idempotent: an immutable list of the same entries
        }
        return ordered;
    }

    private long[] sortedIds() {
        long[] ids = idOrder;
        if (ids == null) {
            ids = new long[entries.size()];
            int i = 0;
            for (NodeEntry entry : entries.asMap().values()) {
                ids[i++] = entry.node().id();
            }
            Arrays.sort(ids);
            idOrder = ids; // racy but idempotent (volatile: the elements are visible with it); never written after
        }
        return ids;
    }

    public Optional<Node> node(long id) {
        NodeEntry entry = entries.get(id);
        return entry == null ? Optional.empty() : Optional.of(entry.node());
    }

    public Optional<NodeEntry> entry(long id) {
        return Optional.ofNullable(entries.get(id));
    }

    /** Whether the node holds a map stream (false for an unknown node). */
    public boolean isOnline(long id) {
        NodeEntry entry = entries.get(id);
        return entry != null && entry.online();
    }

    /** Every node by id: a read-only view, no copy. */
    public Map<Long, Node> nodes() {
        Map<Long, Node> view = nodesView;
        if (view == null) {
            view = new NodesView(entries);
            nodesView = view; // racy but idempotent
        }
        return view;
    }

    /** Every node entry by id: a read-only view, no copy. */
    public Map<Long, NodeEntry> entries() {
        return entries.asMap();
    }

    /** Every user by id: a read-only view, no copy. */
    public Map<Long, User> users() {
        return users.asMap();
    }

    public Optional<Node> nodeByKey(NodePublicKey key) {
        Long id = idsByKey.get(key);
        return id == null ? Optional.empty() : node(id);
    }

    public Optional<User> user(Long id) {
        return id == null ? Optional.empty() : Optional.ofNullable(users.get(id));
    }

    /**
     * With the node's row as written; this snapshot itself when the row is the one it holds.
     *
     * @param lastSeenOnly the write changed only the last-seen time
     */
    NetworkSnapshot withNode(Node node, boolean lastSeenOnly) {
        NodeEntry before = entries.get(node.id());
        if (before != null && before.node().equals(node)) {
            return this;
        }
        long next = version + 1;
        PersistentMap<NodePublicKey, Long> keys = idsByKey;
        if (before != null && !before.node().nodeKey().equals(node.nodeKey())) {
            keys = withoutKey(keys, before.node());
        }
        keys = keys.with(node.nodeKey(), node.id());
        boolean rowChanged = !lastSeenOnly || before == null;
        NodeEntry entry = new NodeEntry(node, before != null && before.online(), next,
                rowChanged ? next : before.rowVersion());
        return new NetworkSnapshot(next, rowChanged ? next : rowsVersion, entries.with(node.id(), entry), users, keys,
                before == null ? null : idOrder);
    }

    /** Without the node; this snapshot itself when it has no such node. */
    NetworkSnapshot withoutNode(long id) {
        NodeEntry before = entries.get(id);
        if (before == null) {
            return this;
        }
        return new NetworkSnapshot(version + 1, version + 1, entries.without(id), users,
                withoutKey(idsByKey, before.node()));
    }

    /** With a new version of the node's entry (same row); this snapshot itself when the node is unknown. */
    NetworkSnapshot withTouched(long id) {
        NodeEntry before = entries.get(id);
        if (before == null) {
            return this;
        }
        long next = version + 1;
        return new NetworkSnapshot(next, next, entries.with(id, new NodeEntry(before.node(), before.online(), next,
                next)), users, idsByKey, idOrder);
    }

    /** With the node's online state; this snapshot itself when unchanged or the node is unknown. */
    NetworkSnapshot withOnline(long id, boolean online) {
        NodeEntry before = entries.get(id);
        if (before == null || before.online() == online) {
            return this;
        }
        long next = version + 1;
        return new NetworkSnapshot(next, rowsVersion, entries.with(id, new NodeEntry(before.node(), online, next,
                before.rowVersion())), users, idsByKey, idOrder);
    }

    NetworkSnapshot withUser(User user) {
        return user.equals(users.get(user.id())) ? this
                : new NetworkSnapshot(version + 1, version + 1, entries, users.with(user.id(), user), idsByKey, idOrder);
    }

    NetworkSnapshot withoutUser(long id) {
        return users.get(id) == null ? this
                : new NetworkSnapshot(version + 1, version + 1, entries, users.without(id), idsByKey, idOrder);
    }

    private static PersistentMap<NodePublicKey, Long> withoutKey(PersistentMap<NodePublicKey, Long> keys, Node node) {
        Long holder = keys.get(node.nodeKey());
        return holder != null && holder == node.id() ? keys.without(node.nodeKey()) : keys;
    }

    @Override
    public String toString() {
        return "NetworkSnapshot[version=" + version + ", nodes=" + entries.size() + ", users=" + users.size() + "]";
    }

    /** The nodes of the entries, without copying. */
    private static final class NodesView extends AbstractMap<Long, Node> {
        private final PersistentMap<Long, NodeEntry> entries;

        NodesView(PersistentMap<Long, NodeEntry> entries) {
            this.entries = entries;
        }

        @Override
        public Node get(Object key) {
            NodeEntry entry = entries.get(key);
            return entry == null ? null : entry.node();
        }

        @Override
        public boolean containsKey(Object key) {
            return entries.get(key) != null;
        }

        @Override
        public int size() {
            return entries.size();
        }

        @Override
        public Set<Map.Entry<Long, Node>> entrySet() {
            return new AbstractSet<>() {
                @Override
                public Iterator<Map.Entry<Long, Node>> iterator() {
                    Iterator<Map.Entry<Long, NodeEntry>> inner = entries.asMap().entrySet().iterator();
                    return new Iterator<>() {
                        @Override
                        public boolean hasNext() {
                            return inner.hasNext();
                        }

                        @Override
                        public Map.Entry<Long, Node> next() {
                            Map.Entry<Long, NodeEntry> next = inner.next();
                            return new AbstractMap.SimpleImmutableEntry<>(next.getKey(), next.getValue().node());
                        }
                    };
                }

                @Override
                public int size() {
                    return entries.size();
                }
            };
        }
    }
}
