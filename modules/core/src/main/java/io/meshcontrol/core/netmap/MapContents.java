package io.meshcontrol.core.netmap;

import io.meshcontrol.core.model.Node;
import io.meshcontrol.core.state.NetworkSnapshot;
import io.meshcontrol.core.wire.FilterRule;
import java.util.List;

/**
 * What a node's map carries of its peers and its packet filter, for readers outside a map stream (the API and the
 * console show a machine's peers and filter from here). Map sessions build their messages from the same methods, so
 * what is shown is what is sent.
 */
public final class MapContents {

    private MapContents() {
    }

    /** The peers {@code self} is sent: admitted nodes the policy lets it see (none while it is not admitted), by id. */
    public static List<Node> peers(Node self, MapInputs in) {
        return in.snapshot().entriesInIdOrder().stream().map(NetworkSnapshot.NodeEntry::node)
                .filter(peer -> isVisible(self, peer, in.access())).toList();
    }

    /** Whether {@code self} has {@code peer} among its peers: both admitted (approved, not suspended), policy allowing. */
    static boolean isVisible(Node self, Node peer, AccessRules access) {
        return self.admitted() && peer.admitted() && peer.id() != self.id() && access.sees(self, peer);
    }

    /** The packet filter {@code self} is sent: the policy's, extended to the addresses of the services it hosts. */
    public static List<FilterRule> packetFilter(Node self, MapInputs in) {
        return in.context().services().packetFilter(self, in.access().packetFilter(self));
    }
}
