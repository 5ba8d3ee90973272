package io.meshcontrol.core.netmap;

import io.meshcontrol.core.lock.LockMapInfo;
import io.meshcontrol.core.netmap.context.MapContext;
import io.meshcontrol.core.wire.TKAInfo;
import io.meshcontrol.core.model.Node;
import io.meshcontrol.core.netmap.encoding.EncodedNodes;
import io.meshcontrol.core.netmap.session.ChangeSet;
import io.meshcontrol.core.netmap.session.IdSet;
import io.meshcontrol.core.netmap.session.SentRoutes;
import io.meshcontrol.core.state.NetworkSnapshot;
import io.meshcontrol.core.state.NetworkSnapshot.NodeEntry;
import io.meshcontrol.core.wire.ClientVersion;
import io.meshcontrol.core.wire.DNSConfig;
import io.meshcontrol.core.wire.Debug;
import io.meshcontrol.core.wire.FilterRule;
import io.meshcontrol.core.wire.MapResponse;
import io.meshcontrol.core.wire.SSHPolicy;
import io.meshcontrol.core.wire.UserProfile;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
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
 *
 * <p>This class keeps what was sent and decides what a message holds; the parts are built elsewhere:
 * {@link SelfView} (the node's own node, capabilities, DNS), {@link PeerView} (whom it sees, each peer's wire form for
 * it), {@link FullMapPeers} (a full map's peers), {@link DeltaPeers} (a delta's), {@link SentProfiles} and
 * {@link SentRoutes} (what it remembers of users and routers).
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
    private TKAInfo sentTka;
    private final PeerForms forms;
    private io.meshcontrol.core.wire.Node sentSelf;
    private List<FilterRule> sentFilter;
    private SSHPolicy sentSsh;
    /** Whether the self node was admitted (approved, not suspended) when last sent: suspension has no wire field. */
    private boolean sentAdmitted;
    private DNSConfig sentDns;
    private final IdSet sentPeers = new IdSet();
    private final SentProfiles sentProfiles = new SentProfiles();
    /** For peers with approved routes only: the routes this viewer was last sent them with. */
    private final SentRoutes sentRoutes = new SentRoutes();
    private NetworkSnapshot synced;
    /** The rules the last message was built with. */
    private AccessRules syncedAccess;
    private Instant syncedAt;

    /** A session with its own peer forms (tests, single maps); streams share one {@link PeerForms}. */
    public MapSessionState(long selfId, int capVersion) {
        this(selfId, capVersion, new PeerForms());
    }

    public MapSessionState(long selfId, int capVersion, PeerForms forms) {
        this.selfId = selfId;
        this.capVersion = capVersion;
        this.forms = forms;
    }

    /** The first message of a stream: everything, with {@code Node} set as the client requires. */
    public MapResponse initial(MapInputs in) {
        NetworkSnapshot snapshot = in.snapshot();
        AccessRules access = in.access();
        MapContext context = in.context();
        Node self = snapshot.node(selfId).orElseThrow(() -> new IllegalStateException("node " + selfId + " is gone"));
        sentSelf = SelfView.node(self, in, capVersion);
        sentFilter = MapContents.packetFilter(self, in);
        sentSsh = access.sshPolicy(self);
        sentAdmitted = self.admitted();
        sentDns = SelfView.dnsConfig(self, in);
        sentClientVersion = context.clientVersionFor(SelfView.ipnVersion(self));
        sentTka = tkaInfo(context);
        sentPeers.clear();
        sentProfiles.clear();
        sentRoutes.clear();
        List<UserProfile> profiles = new ArrayList<>();
        sentProfiles.addIfNew(sentSelf.user(), snapshot, profiles);
        EncodedNodes peers = new FullMapPeers(view(self, in), sentPeers, sentRoutes, sentProfiles, profiles).collect();
        synced = snapshot;
        syncedAccess = access;
        syncedAt = in.now();
        return MapResponse.builder()
                .node(sentSelf)
                .derpMap(context.derpMapFor(capVersion))
                .peers(peers)
                .dnsConfig(sentDns)
                .domain(context.baseDomain())
                .collectServices(false)
                .packetFilter(sentFilter)
                .sshPolicy(sentSsh)
                .userProfiles(SentProfiles.sorted(profiles))
                .controlTime(in.now())
                .debug(new Debug(0, true, null))
                .clientVersion(sentClientVersion)
                .controlDialPlan(context.dialPlan())
                .tkaInfo(sentTka)
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
        long since = synced.version();
        MapResponse.Builder delta = MapResponse.builder();
        boolean any = false;
        boolean selfChanged = false;
        boolean selfStale = changes.everything() || selfEntry.get().version() > since
                || DeltaPeers.expiredSince(self, syncedAt, now);
        if (selfStale || changes.policy()) {
            // A policy change alone can change only the self node's capabilities: no need to build the rest again.
            io.meshcontrol.core.wire.Node selfNow = selfStale
                    ? SelfView.node(self, in, capVersion)
                    : SelfView.withCapabilities(sentSelf, SelfView.capabilities(self, in));
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
        DNSConfig dns = SelfView.dnsConfig(self, in);
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
        DeltaPeers peers = new DeltaPeers(view(self, in), sentPeers, sentRoutes, since, syncedAt, rulesChanged)
                .visit(changes, recheckAll);
        if (!peers.changed.isEmpty()) {
            delta.peersChanged(EncodedNodes.of(peers.changed));
            any = true;
        }
        if (!peers.patched.isEmpty()) {
            delta.peersChangedPatch(peers.patched);
            any = true;
        }
        if (!peers.removed.isEmpty()) {
            delta.peersRemoved(List.copyOf(peers.removed));
            any = true;
        }
        List<UserProfile> profiles = new ArrayList<>();
        if (selfChanged) {
            sentProfiles.addIfNew(sentSelf.user(), snapshot, profiles);
        }
        for (EncodedNodes.Encoded peer : peers.changed) {
            sentProfiles.addIfNew(peer.node().user(), snapshot, profiles);
        }
        sentProfiles.addChanged(changes.userIds(), snapshot, profiles);
        if (!profiles.isEmpty()) {
            // Clients from 1.102 apply peer changes in place and keep the owner names that `tailscale status` shows
            // from their last whole netmap: the domain (unchanged) makes them build one with the new profiles.
            delta.userProfiles(SentProfiles.sorted(profiles)).domain(in.context().baseDomain());
            any = true;
        }
        if (changes.everything()) {
            MapContext context = in.context();
            delta.derpMap(context.derpMapFor(capVersion)).domain(context.baseDomain())
                    .controlDialPlan(context.dialPlan());
            any = true;
        }
        if (changes.everything()) {
            TKAInfo lock = tkaInfo(in.context());
            if (lock != null && !lock.equals(sentTka)) {
                delta.tkaInfo(lock);
                sentTka = lock;
                any = true;
            }
        }
        if (changes.everything() || dnsChanged) {
            delta.dnsConfig(dns);
            any = true;
        }
        if (changes.everything() || selfStale) {
            // A new release was found, or the client itself was updated (its Hostinfo names its version).
            ClientVersion version = in.context().clientVersionFor(SelfView.ipnVersion(self));
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

    /** What the map says of the tailnet lock (null: nothing, lock was never initialised). */
    private static TKAInfo tkaInfo(MapContext context) {
        LockMapInfo lock = context.tailnetLock();
        return lock == null ? null : new TKAInfo(lock.head(), lock.disabled());
    }

    /** How this node sees its peers in a message built from {@code in}. */
    private PeerView view(Node self, MapInputs in) {
        return new PeerView(forms, capVersion, self, SelfView.region(self, in), in);
    }

    /** The peer ids last sent, for tests and diagnostics. */
    public Set<Long> peerIds() {
        Set<Long> ids = new HashSet<>();
        sentPeers.forEach(ids::add);
        return Set.copyOf(ids);
    }
}
