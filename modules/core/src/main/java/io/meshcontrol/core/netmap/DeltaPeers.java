package io.meshcontrol.core.netmap;

import io.meshcontrol.core.model.Node;
import io.meshcontrol.core.netmap.encoding.EncodedNodes;
import io.meshcontrol.core.netmap.session.ChangeSet;
import io.meshcontrol.core.netmap.session.IdSet;
import io.meshcontrol.core.netmap.session.SentRoutes;
import io.meshcontrol.core.state.NetworkSnapshot;
import io.meshcontrol.core.state.NetworkSnapshot.NodeEntry;
import io.meshcontrol.core.wire.PeerChange;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * A delta's peers: those to send again whole (PeersChanged), those whose online state or last-seen time alone
 * changed (PeersChangedPatch), those to remove (PeersRemoved), found by looking at one node at a time, and only at
 * the nodes a change may concern. Keeps the session's sent peers and routes up to date as it goes. One per delta.
 */
final class DeltaPeers {

    final List<EncodedNodes.Encoded> changed = new ArrayList<>();
    final List<PeerChange> patched = new ArrayList<>();
    final List<Long> removed = new ArrayList<>();
    /** How many visited peers this node sees. */
    private int visible;
    private final PeerView view;
    private final IdSet sentPeers;
    private final SentRoutes sentRoutes;
    private final long since;
    private final Instant syncedAt;
    private final boolean rulesChanged;

    /**
     * @param since        the snapshot version the client was last brought up to
     * @param syncedAt     when it was
     * @param rulesChanged whether the rules may offer routes differently (policy, our own node, users)
     */
    DeltaPeers(PeerView view, IdSet sentPeers, SentRoutes sentRoutes, long since, Instant syncedAt,
            boolean rulesChanged) {
        this.view = view;
        this.sentPeers = sentPeers;
        this.sentRoutes = sentRoutes;
        this.since = since;
        this.syncedAt = syncedAt;
        this.rulesChanged = rulesChanged;
    }

    /**
     * Looks at the nodes {@code changes} may concern: all of them when whom this node sees may have changed
     * ({@code recheckAll}), else the named ones (and, after a change of the rules, the routers it was sent).
     */
    DeltaPeers visit(ChangeSet changes, boolean recheckAll) {
        NetworkSnapshot snapshot = view.in().snapshot();
        if (recheckAll) {
            recheckAll(snapshot);
        } else if (!rulesChanged && seesFewOfMany(changes, snapshot)) {
            visitNamedAmongOwn(changes.nodeIds(), snapshot);
        } else {
            Set<Long> visit = changes.nodeIds();
            if (rulesChanged) {
                visit = new HashSet<>(visit);
                visit.addAll(sentRoutes.peerIds());
            }
            for (long id : visit) {
                visit(id, snapshot.entry(id).orElse(null));
            }
        }
        changed.sort(BY_ID);
        patched.sort(Comparator.comparingLong(PeerChange::nodeId));
        removed.sort(null);
        return this;
    }

    /**
     * Whether this node sees a small part of the network (autogroup:self, tags) and the batch names more nodes than
     * it sees and was sent: then looking up its own among the named costs less than looking at each named node.
     */
    private boolean seesFewOfMany(ChangeSet changes, NetworkSnapshot snapshot) {
        int peerCount = view.in().access().peerCount(view.self());
        return peerCount * MapSessionState.SPARSE_VIEW < snapshot.entries().size()
                && changes.nodeCountAtMost() > peerCount + sentPeers.size();
    }

    /**
     * Visits the named nodes that this one sees now or was sent before: the others are neither added, changed nor
     * removed by a batch whose rules are those of the last one (a node the rules hide that was never sent stays
     * unsent).
     */
    private void visitNamedAmongOwn(Set<Long> named, NetworkSnapshot snapshot) {
        Set<Long> visit = new HashSet<>();
        for (long id : view.in().access().peerIds(view.self())) {
            if (named.contains(id)) {
                visit.add(id);
            }
        }
        sentPeers.forEach(id -> {
            if (named.contains(id)) {
                visit.add(id);
            }
        });
        for (long id : visit) {
            visit(id, snapshot.entry(id).orElse(null));
        }
    }

    /**
     * Visits every node this one may see now and every peer it was sent before. When it sees a small part of the
     * network (autogroup:self, tags), the compiled visibility names those nodes, so a policy change costs a stream
     * O(its peers); when it sees most of it, walking the snapshot in order is cheaper than looking each up.
     */
    private void recheckAll(NetworkSnapshot snapshot) {
        AccessRules access = view.in().access();
        if (access.peerCount(view.self()) * 4 < snapshot.entries().size()) {
            for (long id : access.peerIds(view.self())) {
                visit(id, snapshot.entry(id).orElse(null));
            }
        } else {
            for (NodeEntry entry : snapshot.entriesInIdOrder()) {
                visit(entry.node().id(), entry);
            }
        }
        // Every peer seen now is in sentPeers; any more were sent before and are hidden or gone now.
        if (sentPeers.size() > visible) {
            List<Long> unseen = new ArrayList<>();
            sentPeers.forEach(id -> {
                NodeEntry entry = snapshot.entries().get(id);
                if (entry == null || !view.sees(entry.node())) {
                    unseen.add(id);
                }
            });
            for (long id : unseen) {
                visit(id, snapshot.entry(id).orElse(null));
            }
        }
    }

    private void visit(long id, NodeEntry entry) {
        if (id == view.self().id()) {
            return;
        }
        if (entry != null && view.sees(entry.node())) {
            visible++;
            boolean added = sentPeers.add(id);
            boolean expired = expiredSince(entry.node(), syncedAt, view.in().now());
            if (added || expired || entry.rowVersion() > since) {
                changed.add(sent(entry, view.peer(entry)));
                return;
            }
            // A router's routes in this viewer's map follow the rules, a host's service addresses the services:
            // after such a change, compare them.
            if (rulesChanged && (!entry.node().approvedRoutes().isEmpty() || sentRoutes.contains(id)
                    || !view.in().context().services().hostedBy(entry.node()).isEmpty())) {
                EncodedNodes.Encoded peer = view.peer(entry);
                if (sentRoutes.differ(id, peer.node())) {
                    changed.add(sent(entry, peer));
                    return;
                }
            }
            if (entry.version() > since) {
                patched.add(presence(entry)); // only online state or last seen changed since
            }
        } else if (sentPeers.remove(id)) {
            sentRoutes.forget(id);
            removed.add(id);
        }
    }

    private EncodedNodes.Encoded sent(NodeEntry entry, EncodedNodes.Encoded peer) {
        sentRoutes.note(entry.node(), peer.node());
        return peer;
    }

    /**
     * A peer's online state and last-seen time as a patch. Going online leaves the client's last-seen time as it
     * was, which is what it means for an online peer ("when it was last online").
     */
    private static PeerChange presence(NodeEntry entry) {
        PeerChange.Builder patch = PeerChange.of(entry.node().id()).online(entry.online());
        if (!entry.online() && entry.node().lastSeen() != null) {
            patch.lastSeen(entry.node().lastSeen());
        }
        return patch.build();
    }

    /** Whether the node's key expired after {@code syncedAt} (the session's last message): its Expired flag changed. */
    static boolean expiredSince(Node node, Instant syncedAt, Instant now) {
        return node.keyExpiry() != null && node.keyExpiry().isAfter(syncedAt) && !now.isBefore(node.keyExpiry());
    }

    private static final Comparator<EncodedNodes.Encoded> BY_ID = Comparator.comparingLong(peer -> peer.node().id());
}
