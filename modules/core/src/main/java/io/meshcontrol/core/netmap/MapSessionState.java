package io.meshcontrol.core.netmap;

import io.meshcontrol.core.model.Node;
import io.meshcontrol.core.model.User;
import io.meshcontrol.core.routes.RoutePrefixes;
import io.meshcontrol.core.routes.RouteTable;
import io.meshcontrol.core.state.NetworkSnapshot;
import io.meshcontrol.core.state.NetworkSnapshot.NodeEntry;
import io.meshcontrol.core.wire.ClientVersion;
import io.meshcontrol.core.wire.DNSConfig;
import io.meshcontrol.core.wire.WireJson;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import io.meshcontrol.core.wire.Debug;
import io.meshcontrol.core.wire.FilterRule;
import io.meshcontrol.core.wire.Hostinfo;
import io.meshcontrol.core.net.IpPrefix;
import io.meshcontrol.core.wire.MapResponse;
import io.meshcontrol.core.wire.PeerChange;
import io.meshcontrol.core.wire.RawJson;
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

/**
 * What one node's map stream has been sent, and what it must be sent next. The first answer is a full map;
 * after that only the nodes in a {@link ChangeSet} are looked at, and only differences are sent
 * (PeersChanged, PeersRemoved, a new self Node, new user profiles). Owned by one session thread.
 *
 * <p>Visibility: an admitted node (approved, not suspended) sees the other admitted nodes the access rules let it reach or be reached
 * by; its packet filter, SSH policy and own capabilities are re-sent whenever the rules give it different ones.
 *
 * <p>A peer whose row did not change since the client's copy, only its online state or last-seen time, is sent as
 * a small {@code PeersChangedPatch} rather than whole (streams open and close far more often than nodes change).
 *
 * <p>Memory: a session keeps no peer data. Peers are sent as the shared {@link PeerForms}; the session remembers
 * which peers it sent (a bit per node id) and the snapshot it last brought the client up to ({@code synced}). A
 * peer whose snapshot entry is newer than that snapshot has changed since; one that is not newer is what the client
 * already holds. This relies on the change sets: every node or user change after {@code synced} is named by a
 * change set this state is given later (MapSessions builds them from the snapshot's own change feed).
 *
 * <p>Routers are the exception: which of a router's routes a viewer is offered depends on the policy and the viewer,
 * not only on the router's entry, so for the few peers with approved routes the session also keeps the routes it
 * sent them with; when the rules may have changed (policy, our own node, users) a router is sent again only when
 * those differ.
 */
public final class MapSessionState {

    /**
     * A viewer that sees fewer than one node in this many has its full map built from the nodes it sees, not by
     * walking every node of the network.
     */
    static final int SPARSE_VIEW = 8;

    private final long selfId;
    private final int capVersion;
    private ClientVersion sentClientVersion;
    private final PeerForms forms;
    private io.meshcontrol.core.wire.Node sentSelf;
    private List<FilterRule> sentFilter;
    private SSHPolicy sentSsh;
    /** Whether the self node was admitted (approved, not suspended) when last sent: suspension has no wire field. */
    private boolean sentAdmitted;
    private DNSConfig sentDns;
    private final IdSet sentPeers = new IdSet();
    private final IdSet sentUsers = new IdSet();
    /** For peers with approved routes only: the routes this viewer was last sent them with. */
    private final Map<Long, OfferedRoutes> sentRouterRoutes = new HashMap<>();
    private NetworkSnapshot synced;
    /** The rules the last message was built with. */
    private AccessRules syncedAccess;
    private Instant syncedAt;
    /** This node's home DERP region, read only while some prefix is steered by region. */
    private int viewerRegion = RouteTable.NO_REGION;

    /** A session with its own peer forms (tests, single maps); streams share one {@link PeerForms}. */
    public MapSessionState(long selfId, int capVersion) {
        this(selfId, capVersion, new PeerForms());
    }

    public MapSessionState(long selfId, int capVersion, PeerForms forms) {
        this.selfId = selfId;
        this.capVersion = capVersion;
        this.forms = forms;
    }

    /** The client's version as its Hostinfo states it ({@code IPNVersion}), or null when it does not. */
    private static String ipnVersion(Node self) {
        if (self.hostinfo() == null || self.hostinfo().isEmpty()) {
            return null;
        }
        try {
            JsonNode version = WireJson.mapper().readTree(self.hostinfo()).get("IPNVersion");
            return version == null || !version.isString() ? null : version.asString();
        } catch (JacksonException e) {
            return null;
        }
    }

    /** The first message of a stream: everything, with {@code Node} set as the client requires. */
    public MapResponse initial(MapInputs in) {
        NetworkSnapshot snapshot = in.snapshot();
        AccessRules access = in.access();
        MapContext context = in.context();
        Node self = snapshot.node(selfId).orElseThrow(() -> new IllegalStateException("node " + selfId + " is gone"));
        viewerRegion = regionOf(self, in);
        sentSelf = selfNode(self, in);
        sentFilter = MapContents.packetFilter(self, in);
        sentSsh = access.sshPolicy(self);
        sentAdmitted = self.admitted();
        sentDns = dnsConfig(self, in);
        sentClientVersion = context.clientVersionFor(ipnVersion(self));
        sentPeers.clear();
        sentUsers.clear();
        sentRouterRoutes.clear();
        List<UserProfile> profiles = new ArrayList<>();
        addProfile(sentSelf.user(), snapshot, profiles);
        int peerCount = access.peerCount(self);
        FullPeers peers = new FullPeers(peerCount, snapshot, profiles);
        if (peerCount * SPARSE_VIEW < snapshot.entries().size()) {
            // Few peers of many nodes (autogroup:self, say): look up those rather than walk the whole network. Blocks
            // are not worth it for them (they are seldom whole), so every peer goes alone.
            long[] ids = access.peerIds(self).stream().mapToLong(Long::longValue).sorted().toArray();
            for (long id : ids) {
                NodeEntry entry = snapshot.entry(id).orElse(null);
                if (entry != null && isVisible(self, entry.node(), access)) {
                    sentPeers.add(id);
                    peers.startBlock(PeerForms.blockOf(id));
                    peers.add(sent(entry.node(), peerNode(self, entry, in)), false);
                }
            }
        } else {
            for (NodeEntry entry : snapshot.entriesInIdOrder()) {
                peers.startBlock(PeerForms.blockOf(entry.node().id()));
                if (!isVisible(self, entry.node(), access)) {
                    peers.missing();
                    continue;
                }
                sentPeers.add(entry.node().id());
                EncodedNodes.Encoded shared = forms.peer(entry, in, capVersion);
                EncodedNodes.Encoded mine = forViewer(self, entry, shared, in);
                peers.add(sent(entry.node(), mine), mine == shared);
            }
        }
        peers.endBlock();
        synced = snapshot;
        syncedAccess = access;
        syncedAt = in.now();
        return MapResponse.builder()
                .node(sentSelf)
                .derpMap(context.derpMapFor(capVersion))
                .peers(EncodedNodes.ofParts(peers.parts))
                .dnsConfig(sentDns)
                .domain(context.baseDomain())
                .collectServices(false)
                .packetFilter(sentFilter)
                .sshPolicy(sentSsh)
                .userProfiles(sorted(profiles))
                .controlTime(in.now())
                .debug(new Debug(0, true, null))
                .clientVersion(sentClientVersion)
                .controlDialPlan(context.dialPlan())
                .build();
    }

    /**
     * The delta for {@code changes}, or empty when nothing this node sees changed.
     *
     * @param in inputs whose snapshot holds at least the changes of {@code changes} (an older one than this state was
     *     last brought up to is ignored: everything in it was sent already)
     */
    public Optional<MapResponse> update(ChangeSet changes, MapInputs in) {
        if (synced == null) {
            throw new IllegalStateException("update before initial");
        }
        if (in.snapshot().version() < synced.version()) {
            in = new MapInputs(synced, in.access(), in.routes(), in.context(), in.now());
        }
        NetworkSnapshot snapshot = in.snapshot();
        AccessRules access = in.access();
        Instant now = in.now();
        Optional<NodeEntry> selfEntry = snapshot.entry(selfId);
        if (selfEntry.isEmpty()) {
            return Optional.empty(); // deleted: the session is being closed
        }
        Node self = selfEntry.get().node();
        viewerRegion = regionOf(self, in);
        long since = synced.version();
        MapResponse.Builder delta = MapResponse.builder();
        boolean any = false;
        boolean selfChanged = false;
        boolean selfStale = changes.everything() || selfEntry.get().version() > since || expiredMeanwhile(self, now);
        if (selfStale || changes.policy()) {
            // A policy change alone can change only the self node's capabilities: no need to build the rest again.
            io.meshcontrol.core.wire.Node selfNow = selfStale
                    ? selfNode(self, in)
                    : withCapabilities(sentSelf, capabilities(self, in));
            if (!selfNow.equals(sentSelf)) {
                delta.node(selfNow);
                sentSelf = selfNow;
                selfChanged = true;
                any = true;
            }
        }
        List<FilterRule> filter = MapContents.packetFilter(self, in);
        if (!filter.equals(sentFilter)) {
            delta.packetFilter(filter);
            sentFilter = filter;
            any = true;
        }
        SSHPolicy ssh = access.sshPolicy(self);
        if (!ssh.equals(sentSsh)) {
            delta.sshPolicy(ssh);
            sentSsh = ssh;
            any = true;
        }
        // Split DNS to app connectors follows the connectors' presence, addresses and visibility: compare it.
        DNSConfig dns = dnsConfig(self, in);
        boolean dnsChanged = !dns.equals(sentDns);
        sentDns = dns;
        // A new policy may change whom we see, as may our own state (approval, tags, owner) and users' names and
        // roles: look at all again. A policy change that leaves whom we see as it was (most of them, for most
        // nodes) needs a second look only at the peers whose routes it may offer us differently.
        boolean admittedChanged = self.admitted() != sentAdmitted;
        sentAdmitted = self.admitted();
        boolean seenMayChange = changes.everything() || selfChanged || admittedChanged || !changes.userIds().isEmpty();
        boolean rulesChanged = seenMayChange || changes.policy();
        boolean recheckAll = seenMayChange || changes.policy() && !access.samePeers(self, syncedAccess);
        Peers peers = new Peers(self, since, in, rulesChanged);
        if (recheckAll) {
            recheckAll(peers, self, snapshot, access);
        } else if (!rulesChanged && seesFewOfMany(self, changes, snapshot, access)) {
            visitNamedAmongOwn(peers, self, changes.nodeIds(), snapshot, access);
        } else {
            Set<Long> visit = changes.nodeIds();
            if (rulesChanged) {
                visit = new HashSet<>(visit);
                visit.addAll(sentRouterRoutes.keySet());
            }
            for (long id : visit) {
                peers.visit(id, snapshot.entry(id).orElse(null));
            }
        }
        if (!peers.changed.isEmpty()) {
            peers.changed.sort(BY_ID);
            delta.peersChanged(EncodedNodes.of(peers.changed));
            any = true;
        }
        if (!peers.patched.isEmpty()) {
            peers.patched.sort(Comparator.comparingLong(PeerChange::nodeId));
            delta.peersChangedPatch(peers.patched);
            any = true;
        }
        if (!peers.removed.isEmpty()) {
            delta.peersRemoved(peers.removed.stream().sorted().toList());
            any = true;
        }
        List<UserProfile> profiles = new ArrayList<>();
        if (selfChanged) {
            addProfile(sentSelf.user(), snapshot, profiles);
        }
        for (EncodedNodes.Encoded peer : peers.changed) {
            addProfile(peer.node().user(), snapshot, profiles);
        }
        for (long userId : changes.userIds()) {
            if (sentUsers.contains(userId) && snapshot.user(userId).isPresent()
                    && profiles.stream().noneMatch(p -> p.id() == userId)) {
                profiles.add(profile(userId, snapshot)); // renamed: send again
            }
        }
        if (!profiles.isEmpty()) {
            // Clients from 1.102 apply peer changes in place and keep the owner names that `tailscale status` shows
            // from their last whole netmap: the domain (unchanged) makes them build one with the new profiles.
            delta.userProfiles(sorted(profiles)).domain(in.context().baseDomain());
            any = true;
        }
        if (changes.everything()) {
            MapContext context = in.context();
            delta.derpMap(context.derpMapFor(capVersion)).domain(context.baseDomain())
                    .controlDialPlan(context.dialPlan());
            any = true;
        }
        if (changes.everything() || dnsChanged) {
            delta.dnsConfig(dns);
            any = true;
        }
        if (changes.everything() || selfStale) {
            // A new release was found, or the client itself was updated (its Hostinfo names its version).
            ClientVersion version = in.context().clientVersionFor(ipnVersion(self));
            if (!version.equals(sentClientVersion)) {
                delta.clientVersion(version);
                sentClientVersion = version;
                any = true;
            }
        }
        synced = snapshot;
        syncedAccess = access;
        syncedAt = now;
        return any ? Optional.of(delta.controlTime(now).build()) : Optional.empty();
    }

    /**
     * Whether this node sees a small part of the network (autogroup:self, tags) and the batch names more nodes than
     * it sees and was sent: then looking up its own among the named costs less than looking at each named node.
     */
    private boolean seesFewOfMany(Node self, ChangeSet changes, NetworkSnapshot snapshot, AccessRules access) {
        int peerCount = access.peerCount(self);
        return peerCount * SPARSE_VIEW < snapshot.entries().size()
                && changes.nodeCountAtMost() > peerCount + sentPeers.size();
    }

    /**
     * Visits the named nodes that this one sees now or was sent before: the others are neither added, changed nor
     * removed by a batch whose rules are those of the last one (a node the rules hide that was never sent stays
     * unsent).
     */
    private void visitNamedAmongOwn(Peers peers, Node self, Set<Long> named, NetworkSnapshot snapshot,
            AccessRules access) {
        Set<Long> visit = new HashSet<>();
        for (long id : access.peerIds(self)) {
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
            peers.visit(id, snapshot.entry(id).orElse(null));
        }
    }

    /**
     * Visits every node this one may see now and every peer it was sent before. When it sees a small part of the
     * network (autogroup:self, tags), the compiled visibility names those nodes, so a policy change costs a stream
     * O(its peers); when it sees most of it, walking the snapshot in order is cheaper than looking each up.
     */
    private void recheckAll(Peers peers, Node self, NetworkSnapshot snapshot, AccessRules access) {
        if (access.peerCount(self) * 4 < snapshot.entries().size()) {
            for (long id : access.peerIds(self)) {
                peers.visit(id, snapshot.entry(id).orElse(null));
            }
        } else {
            for (NodeEntry entry : snapshot.entriesInIdOrder()) {
                peers.visit(entry.node().id(), entry);
            }
        }
        // Every peer seen now is in sentPeers; any more were sent before and are hidden or gone now.
        if (sentPeers.size() > peers.visible) {
            List<Long> unseen = new ArrayList<>();
            sentPeers.forEach(id -> {
                NodeEntry entry = snapshot.entries().get(id);
                if (entry == null || !isVisible(self, entry.node(), access)) {
                    unseen.add(id);
                }
            });
            for (long id : unseen) {
                peers.visit(id, snapshot.entry(id).orElse(null));
            }
        }
    }

    /** The viewer's home region when routes are steered by region (else no need to read its Hostinfo). */
    private static int regionOf(Node self, MapInputs in) {
        return in.routes().steersByRegion() ? Hostinfo.homeRegion(self.hostinfo()) : RouteTable.NO_REGION;
    }

    /** The node's DNS settings: the network's, split DNS to the app connectors it may use, its certificate names. */
    private static DNSConfig dnsConfig(Node self, MapInputs in) {
        return CertDomains.addedTo(in.context().apps().dnsConfig(self, in), self, in.context());
    }

    /** The self node with its capabilities. */
    private io.meshcontrol.core.wire.Node selfNode(Node self, MapInputs in) {
        return WireNodes.self(self, in, capVersion).toBuilder().capMap(capabilities(self, in)).build();
    }

    /**
     * The node's own capabilities: the policy's ({@code nodeAttrs}), those the global exit nodes give everyone,
     * {@code https} when it may get certificates, a connector's apps and the services it hosts.
     */
    private static Map<String, List<RawJson>> capabilities(Node self, MapInputs in) {
        Map<String, List<RawJson>> caps = in.access().capMap(self);
        List<String> steering = in.routes().exits().selfAttributes();
        if (!steering.isEmpty()) {
            Map<String, List<RawJson>> withSteering = new java.util.TreeMap<>(caps);
            steering.forEach(name -> withSteering.putIfAbsent(name, null));
            caps = withSteering;
        }
        MapContext context = in.context();
        if (!CertDomains.of(self, context).isEmpty()) {
            Map<String, List<RawJson>> withHttps = new java.util.TreeMap<>(caps);
            withHttps.putIfAbsent(CertDomains.HTTPS_CAPABILITY, null);
            caps = withHttps;
        }
        return context.services().capabilities(self, context.apps().connectors().withCapabilities(self, caps));
    }

    private static io.meshcontrol.core.wire.Node withCapabilities(io.meshcontrol.core.wire.Node sent,
            Map<String, List<RawJson>> capMap) {
        return capMap.equals(sent.capMap()) ? sent : sent.toBuilder().capMap(capMap).build();
    }

    /**
     * A peer as this node sees it: the shared form, except that of the routes a router serves only those the policy
     * lets this node use (or answer through) are in its {@code AllowedIPs} and {@code PrimaryRoutes}, as the vendor
     * sends them; such a router is encoded for this viewer alone.
     */
    private EncodedNodes.Encoded peerNode(Node self, NodeEntry entry, MapInputs in) {
        return forViewer(self, entry, forms.peer(entry, in, capVersion), in);
    }

    /**
     * The shared form itself, or the router encoded for this viewer: when it is offered fewer routes (those the
     * policy does not let it use, and an app connector's public app routes when both are behind the same public
     * address), or when regional routing steers this viewer to it for other prefixes than its tailnet-wide ones. Its
     * own addresses and those of the services it hosts always stay.
     */
    private EncodedNodes.Encoded forViewer(Node self, NodeEntry entry, EncodedNodes.Encoded shared, MapInputs in) {
        Node peer = entry.node();
        if (peer.approvedRoutes().isEmpty()) {
            return shared;
        }
        io.meshcontrol.core.wire.Node wire = shared.node();
        List<IpPrefix> allowedIps = wire.allowedIps();
        List<IpPrefix> primaryRoutes = wire.primaryRoutes();
        RouteTable routes = in.routes();
        if (routes.steersByRegion()) {
            List<IpPrefix> steered = routes.primaryRoutesFor(peer.id(), viewerRegion);
            if (!steered.equals(primaryRoutes)) {
                // Keep what is not a subnet route (addresses, hosted services, exit routes); the steered subnets follow.
                List<IpPrefix> allowed = new ArrayList<>(wire.allowedIps().stream()
                        .filter(p -> !peer.approvedRoutes().contains(p) || RoutePrefixes.isExit(p)).toList());
                allowed.addAll(steered);
                allowedIps = RoutePrefixes.sorted(allowed);
                primaryRoutes = steered;
            }
        }
        Set<String> offered = new HashSet<>(in.access().peerRoutes(self, peer));
        in.context().apps().connectors().skippedRoutes(self, peer).forEach(r -> offered.remove(r.toString()));
        List<IpPrefix> allowed = allowedIps.stream()
                .filter(p -> offered.contains(p.toString()) || !peer.approvedRoutes().contains(p)).toList();
        List<IpPrefix> primary = primaryRoutes.stream().filter(p -> offered.contains(p.toString())).toList();
        if (allowed.equals(wire.allowedIps()) && primary.equals(wire.primaryRoutes())) {
            return shared;
        }
        return EncodedNodes.Encoded.of(wire.toBuilder().allowedIps(allowed).primaryRoutes(primary).build());
    }

    /**
     * Notes the routes a router or service host was sent with (and forgets them for a peer that is routed nothing
     * beyond its own addresses).
     */
    private EncodedNodes.Encoded sent(Node peer, EncodedNodes.Encoded encoded) {
        if (peer.approvedRoutes().isEmpty()
                && java.util.Objects.equals(encoded.node().allowedIps(), encoded.node().addresses())) {
            if (!sentRouterRoutes.isEmpty()) { // a full map asks for every peer, and most networks have few routers
                sentRouterRoutes.remove(peer.id());
            }
        } else {
            sentRouterRoutes.put(peer.id(), OfferedRoutes.of(encoded.node()));
        }
        return encoded;
    }

    /** What of a router's wire form depends on the viewer. */
    private record OfferedRoutes(List<IpPrefix> allowedIps, List<IpPrefix> primaryRoutes) {
        static OfferedRoutes of(io.meshcontrol.core.wire.Node wire) {
            return new OfferedRoutes(wire.allowedIps(), wire.primaryRoutes());
        }
    }

    /** The peer ids last sent, for tests and diagnostics. */
    public Set<Long> peerIds() {
        Set<Long> ids = new HashSet<>();
        sentPeers.forEach(ids::add);
        return Set.copyOf(ids);
    }

    /**
     * A full map's peers in id order, as parts: a block of {@link PeerForms} when this viewer sees every node of
     * that block in its shared form (the common case, kept compressed for all maps), single peers otherwise (its
     * own block, hidden nodes, routers encoded for this viewer). Each peer's user profile is added as the peer is,
     * while its wire form is in the processor's cache.
     */
    private final class FullPeers {
        final List<EncodedNodes.Part> parts;
        private final NetworkSnapshot snapshot;
        private final List<UserProfile> profiles;
        private final List<EncodedNodes.Encoded> block = new ArrayList<>(PeerForms.BLOCK_IDS);
        private long blockIndex = Long.MIN_VALUE;
        private boolean whole;

        /** Sized for about {@code peers} peers, so that a full map of a large network does not grow its list. */
        FullPeers(int peers, NetworkSnapshot snapshot, List<UserProfile> profiles) {
            parts = new ArrayList<>(peers / PeerForms.BLOCK_IDS + 16);
            this.snapshot = snapshot;
            this.profiles = profiles;
        }

        void startBlock(long index) {
            if (index != blockIndex) {
                endBlock();
                blockIndex = index;
                whole = true;
            }
        }

        void missing() {
            whole = false;
        }

        void add(EncodedNodes.Encoded peer, boolean shared) {
            addProfile(peer.node().user(), snapshot, profiles);
            block.add(peer);
            whole &= shared;
        }

        void endBlock() {
            if (whole && !block.isEmpty()) {
                parts.add(forms.block(blockIndex, block, capVersion));
            } else {
                parts.addAll(block);
            }
            block.clear();
        }
    }

    /** Peers to send again or remove, found by looking at one node at a time. */
    private final class Peers {
        final List<EncodedNodes.Encoded> changed = new ArrayList<>();
        final List<PeerChange> patched = new ArrayList<>();
        final List<Long> removed = new ArrayList<>();
        /** How many visited peers this node sees. */
        int visible;
        private final Node self;
        private final long since;
        private final MapInputs in;
        private final boolean rulesChanged;

        Peers(Node self, long since, MapInputs in, boolean rulesChanged) {
            this.self = self;
            this.since = since;
            this.in = in;
            this.rulesChanged = rulesChanged;
        }

        void visit(long id, NodeEntry entry) {
            if (id == selfId) {
                return;
            }
            if (entry != null && isVisible(self, entry.node(), in.access())) {
                visible++;
                boolean added = sentPeers.add(id);
                boolean expired = expiredMeanwhile(entry.node(), in.now());
                if (added || expired || entry.rowVersion() > since) {
                    changed.add(sent(entry.node(), peerNode(self, entry, in)));
                    return;
                }
                // A router's routes in this viewer's map follow the rules, a host's service addresses the services:
                // after such a change, compare them.
                if (rulesChanged && (!entry.node().approvedRoutes().isEmpty() || sentRouterRoutes.containsKey(id)
                        || !in.context().services().hostedBy(entry.node()).isEmpty())) {
                    EncodedNodes.Encoded peer = peerNode(self, entry, in);
                    if (!OfferedRoutes.of(peer.node()).equals(sentRouterRoutes.get(id))) {
                        changed.add(sent(entry.node(), peer));
                        return;
                    }
                }
                if (entry.version() > since) {
                    patched.add(presence(entry)); // only online state or last seen changed since
                }
            } else if (sentPeers.remove(id)) {
                sentRouterRoutes.remove(id);
                removed.add(id);
            }
        }
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

    /** Whether the node's key expired after this session's last message: its Expired flag changed since. */
    private boolean expiredMeanwhile(Node node, Instant now) {
        return node.keyExpiry() != null && node.keyExpiry().isAfter(syncedAt) && !now.isBefore(node.keyExpiry());
    }

    /** Whether {@code self} has {@code peer} among its peers: both admitted (approved, not suspended), policy allowing. */
    static boolean isVisible(Node self, Node peer, AccessRules access) {
        return self.admitted() && peer.admitted() && peer.id() != self.id() && access.sees(self, peer);
    }

    /** The user's profile, when this session has not sent it yet. */
    private void addProfile(long userId, NetworkSnapshot snapshot, List<UserProfile> out) {
        if (sentUsers.add(userId)) {
            out.add(profile(userId, snapshot));
        }
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

    private static List<UserProfile> sorted(List<UserProfile> profiles) {
        profiles.sort(Comparator.comparingLong(UserProfile::id));
        return profiles;
    }

    private static final Comparator<EncodedNodes.Encoded> BY_ID = Comparator.comparingLong(peer -> peer.node().id());
}
