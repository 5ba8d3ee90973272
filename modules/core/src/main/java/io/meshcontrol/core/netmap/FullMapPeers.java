package io.meshcontrol.core.netmap;

import io.meshcontrol.core.netmap.encoding.EncodedNodes;
import io.meshcontrol.core.netmap.session.IdSet;
import io.meshcontrol.core.netmap.session.SentRoutes;
import io.meshcontrol.core.state.NetworkSnapshot;
import io.meshcontrol.core.state.NetworkSnapshot.NodeEntry;
import io.meshcontrol.core.wire.UserProfile;
import java.util.ArrayList;
import java.util.List;

/**
 * A full map's peers in id order, as parts: a block of {@link PeerForms} when this viewer sees every node of that
 * block in its shared form (the common case, kept compressed for all maps), single peers otherwise (its own block,
 * hidden nodes, routers encoded for this viewer). Each peer's user profile is added as the peer is, while its wire
 * form is in the processor's cache. One per full map.
 */
final class FullMapPeers {

    private final PeerView view;
    private final IdSet sentPeers;
    private final SentRoutes sentRoutes;
    private final SentProfiles sentProfiles;
    private final List<UserProfile> profiles;
    private final NetworkSnapshot snapshot;
    private final List<EncodedNodes.Part> parts;
    private final List<EncodedNodes.Encoded> block = new ArrayList<>(PeerForms.BLOCK_IDS);
    private long blockIndex = Long.MIN_VALUE;
    private boolean whole;

    /**
     * @param sentPeers   the session's sent peers, cleared, to note each peer in
     * @param profiles    where the profiles of the peers' users go, those not sent before
     */
    FullMapPeers(PeerView view, IdSet sentPeers, SentRoutes sentRoutes, SentProfiles sentProfiles,
            List<UserProfile> profiles) {
        this.view = view;
        this.sentPeers = sentPeers;
        this.sentRoutes = sentRoutes;
        this.sentProfiles = sentProfiles;
        this.profiles = profiles;
        this.snapshot = view.in().snapshot();
        // Sized for about as many parts as the peers need, so that a full map of a large network does not grow its list.
        this.parts = new ArrayList<>(view.in().access().peerCount(view.self()) / PeerForms.BLOCK_IDS + 16);
    }

    /** Every peer the viewer sees. */
    EncodedNodes collect() {
        AccessRules access = view.in().access();
        int peerCount = access.peerCount(view.self());
        if (peerCount * MapSessionState.SPARSE_VIEW < snapshot.entries().size()) {
            // Few peers of many nodes (autogroup:self, say): look up those rather than walk the whole network. Blocks
            // are not worth it for them (they are seldom whole), so every peer goes alone.
            long[] ids = access.peerIds(view.self()).stream().mapToLong(Long::longValue).sorted().toArray();
            for (long id : ids) {
                NodeEntry entry = snapshot.entry(id).orElse(null);
                if (entry != null && view.sees(entry.node())) {
                    sentPeers.add(id);
                    startBlock(PeerForms.blockOf(id));
                    add(entry, view.peer(entry), false);
                }
            }
        } else {
            for (NodeEntry entry : snapshot.entriesInIdOrder()) {
                startBlock(PeerForms.blockOf(entry.node().id()));
                if (!view.sees(entry.node())) {
                    whole = false;
                    continue;
                }
                sentPeers.add(entry.node().id());
                EncodedNodes.Encoded shared = view.shared(entry);
                EncodedNodes.Encoded mine = view.forViewer(entry, shared);
                add(entry, mine, mine == shared);
            }
        }
        endBlock();
        return EncodedNodes.ofParts(parts);
    }

    private void startBlock(long index) {
        if (index != blockIndex) {
            endBlock();
            blockIndex = index;
            whole = true;
        }
    }

    private void add(NodeEntry entry, EncodedNodes.Encoded peer, boolean shared) {
        sentRoutes.note(entry.node(), peer.node());
        sentProfiles.addIfNew(peer.node().user(), snapshot, profiles);
        block.add(peer);
        whole &= shared;
    }

    private void endBlock() {
        if (whole && !block.isEmpty()) {
            parts.add(view.forms().block(blockIndex, block, view.capVersion()));
        } else {
            parts.addAll(block);
        }
        block.clear();
    }
}
