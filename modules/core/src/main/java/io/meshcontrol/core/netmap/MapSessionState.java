package io.meshcontrol.core.netmap;

import io.meshcontrol.core.model.Node;
import io.meshcontrol.core.model.User;
import io.meshcontrol.core.routes.RouteTable;
import io.meshcontrol.core.state.NetworkSnapshot;
import io.meshcontrol.core.state.PolicyInventories;
import io.meshcontrol.core.wire.ClientVersion;
import io.meshcontrol.core.wire.Debug;
import io.meshcontrol.core.wire.FilterRule;
import io.meshcontrol.core.wire.IpPrefix;
import io.meshcontrol.core.wire.MapResponse;
import io.meshcontrol.core.wire.SSHPolicy;
import io.meshcontrol.core.wire.UserProfile;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.LongPredicate;

/**
 * What one node's map stream has been sent, and what it must be sent next. The first answer is a full map;
 * after that only the nodes in a {@link ChangeSet} are looked at, and only differences are sent
 * (PeersChanged, PeersRemoved, a new self Node, new user profiles). Owned by one session thread.
 *
 * <p>Visibility: an approved node sees the other approved nodes the access rules let it reach or be reached
 * by; its packet filter, SSH policy and own capabilities are re-sent whenever the rules give it different ones.
 */
public final class MapSessionState {

    private final long selfId;
    private final int capVersion;
    private io.meshcontrol.core.wire.Node sentSelf;
    private final Map<Long, io.meshcontrol.core.wire.Node> sentPeers = new HashMap<>();
    private final Map<Long, UserProfile> sentProfiles = new HashMap<>();
    private List<FilterRule> sentFilter;
    private SSHPolicy sentSsh;

    public MapSessionState(long selfId, int capVersion) {
        this.selfId = selfId;
        this.capVersion = capVersion;
    }

    /** The first message of a stream: everything, with {@code Node} set as the client requires. */
    public MapResponse initial(NetworkSnapshot snapshot, LongPredicate online, MapContext context, AccessRules access,
            RouteTable routes, Instant now) {
        Node self = snapshot.node(selfId).orElseThrow(() -> new IllegalStateException("node " + selfId + " is gone"));
        sentSelf = selfNode(self, routes, context, access, now);
        sentFilter = access.packetFilter(self);
        sentSsh = access.sshPolicy(self);
        sentPeers.clear();
        for (Node peer : visiblePeers(self, snapshot, access)) {
            sentPeers.put(peer.id(), peerNode(self, peer, routes, context, online.test(peer.id()), access, now));
        }
        sentProfiles.clear();
        List<UserProfile> profiles = newProfiles(snapshot, Set.of());
        return MapResponse.builder()
                .node(sentSelf)
                .derpMap(context.derpMap())
                .peers(sortedById(sentPeers.values()))
                .dnsConfig(context.dnsConfig())
                .domain(context.baseDomain())
                .collectServices(false)
                .packetFilter(sentFilter)
                .sshPolicy(sentSsh)
                .userProfiles(profiles)
                .controlTime(now)
                .debug(new Debug(0, true, null))
                .clientVersion(ClientVersion.latest())
                .build();
    }

    /** The delta for {@code changes}, or empty when nothing this node sees changed. */
    public Optional<MapResponse> update(ChangeSet changes, NetworkSnapshot snapshot, LongPredicate online,
            MapContext context, AccessRules access, RouteTable routes, Instant now) {
        Optional<Node> self = snapshot.node(selfId);
        if (self.isEmpty()) {
            return Optional.empty(); // deleted: the session is being closed
        }
        MapResponse.Builder delta = MapResponse.builder();
        boolean any = false;
        io.meshcontrol.core.wire.Node selfNow = selfNode(self.get(), routes, context, access, now);
        boolean selfChanged = !selfNow.equals(sentSelf);
        if (selfChanged) {
            delta.node(selfNow);
            any = true;
        }
        // A new policy may change whom we see, as may our own state (approval, tags, owner) and users' names and roles.
        boolean recheckAll = changes.everything() || changes.policy() || selfChanged || !changes.userIds().isEmpty();
        List<FilterRule> filter = access.packetFilter(self.get());
        if (!filter.equals(sentFilter)) {
            delta.packetFilter(filter);
            sentFilter = filter;
            any = true;
        }
        SSHPolicy ssh = access.sshPolicy(self.get());
        if (!ssh.equals(sentSsh)) {
            delta.sshPolicy(ssh);
            sentSsh = ssh;
            any = true;
        }
        sentSelf = selfNow;
        Set<Long> ids = new HashSet<>(changes.nodeIds());
        if (recheckAll) {
            ids.addAll(sentPeers.keySet());
            ids.addAll(snapshot.nodes().keySet());
        }
        ids.remove(selfId);
        // After a policy change alone, a peer we keep seeing looks as before unless what it shows depends on the
        // policy (its routes): one bit test per node instead of rebuilding every peer of every stream.
        boolean policyOnly = changes.policy() && !changes.everything() && !selfChanged && changes.userIds().isEmpty();
        List<io.meshcontrol.core.wire.Node> changed = new ArrayList<>();
        List<Long> removed = new ArrayList<>();
        for (long id : ids) {
            Optional<Node> peer = snapshot.node(id).filter(p -> isVisible(self.get(), p, access));
            if (peer.isPresent() && policyOnly && sentPeers.containsKey(id) && !changes.nodeIds().contains(id)
                    && PolicyInventories.approvedRoutes(peer.get()).isEmpty()) {
                continue;
            }
            if (peer.isPresent()) {
                io.meshcontrol.core.wire.Node wire = peerNode(self.get(), peer.get(), routes, context, online.test(id),
                        access, now);
                if (!wire.equals(sentPeers.put(id, wire))) {
                    changed.add(wire);
                }
            } else if (sentPeers.remove(id) != null) {
                removed.add(id);
            }
        }
        if (!changed.isEmpty()) {
            delta.peersChanged(sortedById(changed));
            any = true;
        }
        if (!removed.isEmpty()) {
            delta.peersRemoved(removed.stream().sorted().toList());
            any = true;
        }
        List<UserProfile> profiles = newProfiles(snapshot, changes.userIds());
        if (!profiles.isEmpty()) {
            delta.userProfiles(profiles);
            any = true;
        }
        if (changes.everything()) {
            delta.dnsConfig(context.dnsConfig()).derpMap(context.derpMap()).domain(context.baseDomain());
            any = true;
        }
        return any ? Optional.of(delta.controlTime(now).build()) : Optional.empty();
    }

    /** The self node with its capabilities from the policy ({@code nodeAttrs}). */
    private io.meshcontrol.core.wire.Node selfNode(Node self, RouteTable routes, MapContext context, AccessRules access,
            Instant now) {
        return WireNodes.of(self, routes, context, true, true, capVersion, now).toBuilder().capMap(access.capMap(self))
                .build();
    }

    /**
     * A peer as this node sees it: of the routes the peer serves, only those the policy lets this node use (or
     * answer through) are in its {@code AllowedIPs} and {@code PrimaryRoutes}, as the vendor sends them.
     */
    private io.meshcontrol.core.wire.Node peerNode(Node self, Node peer, RouteTable routes, MapContext context,
            boolean online, AccessRules access, Instant now) {
        io.meshcontrol.core.wire.Node wire = WireNodes.of(peer, routes, context, online, false, capVersion, now);
        if (peer.approvedRoutes().isEmpty()) {
            return wire;
        }
        Set<String> offered = Set.copyOf(access.peerRoutes(self, peer));
        List<IpPrefix> allowed = wire.allowedIps().stream()
                .filter(p -> wire.addresses().contains(p) || offered.contains(p.toString())).toList();
        List<IpPrefix> primary = wire.primaryRoutes().stream().filter(p -> offered.contains(p.toString())).toList();
        if (allowed.size() == wire.allowedIps().size() && primary.size() == wire.primaryRoutes().size()) {
            return wire;
        }
        return wire.toBuilder().allowedIps(allowed).primaryRoutes(primary).build();
    }

    /** The peer ids last sent, for tests and diagnostics. */
    public Set<Long> peerIds() {
        return Set.copyOf(sentPeers.keySet());
    }

    private static List<Node> visiblePeers(Node self, NetworkSnapshot snapshot, AccessRules access) {
        return snapshot.nodes().values().stream().filter(peer -> isVisible(self, peer, access)).toList();
    }

    private static boolean isVisible(Node self, Node peer, AccessRules access) {
        return self.authorized() && peer.authorized() && peer.id() != self.id() && access.sees(self, peer);
    }

    /** Profiles of the users behind self and the sent peers that were not sent yet, or whose user changed. */
    private List<UserProfile> newProfiles(NetworkSnapshot snapshot, Set<Long> changedUsers) {
        Set<Long> needed = new HashSet<>();
        needed.add(sentSelf.user());
        sentPeers.values().forEach(peer -> needed.add(peer.user()));
        List<UserProfile> out = new ArrayList<>();
        for (long userId : needed) {
            if (sentProfiles.containsKey(userId) && !changedUsers.contains(userId)) {
                continue;
            }
            UserProfile profile = profile(userId, snapshot);
            if (!profile.equals(sentProfiles.put(userId, profile))) {
                out.add(profile);
            }
        }
        out.sort(Comparator.comparingLong(UserProfile::id));
        return out;
    }

    private static UserProfile profile(long userId, NetworkSnapshot snapshot) {
        if (userId == WireNodes.TAGGED_DEVICES_USER_ID) {
            return new UserProfile(userId, "tagged-devices", "Tagged Devices", null, null);
        }
        User user = snapshot.user(userId).orElse(null);
        if (user == null) {
            return new UserProfile(userId, "unknown", "Unknown user", null, null);
        }
        return new UserProfile(userId, user.loginName(), user.displayName().isEmpty() ? user.name() : user.displayName(),
                null, null);
    }

    private static List<io.meshcontrol.core.wire.Node> sortedById(java.util.Collection<io.meshcontrol.core.wire.Node> nodes) {
        return nodes.stream().sorted(Comparator.comparingLong(io.meshcontrol.core.wire.Node::id)).toList();
    }
}
