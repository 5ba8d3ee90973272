package io.meshcontrol.core.netmap;

import io.meshcontrol.core.netmap.context.MapContext;
import io.meshcontrol.core.netmap.encoding.EncodedNodes;
import io.meshcontrol.core.netmap.session.ChangeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.core.auth.Caller;
import io.meshcontrol.core.model.Node;
import io.meshcontrol.core.model.Role;
import io.meshcontrol.core.routes.RouteTable;
import io.meshcontrol.core.state.Network;
import io.meshcontrol.core.state.NetworkOptions;
import io.meshcontrol.core.state.NetworkSnapshot;
import io.meshcontrol.core.state.Settings;
import io.meshcontrol.core.state.Users;
import io.meshcontrol.core.testing.AuthKey;
import io.meshcontrol.core.testing.Machine;
import io.meshcontrol.core.testing.TestNetwork;
import io.meshcontrol.core.wire.DERPMap;
import io.meshcontrol.core.wire.DNSConfig;
import io.meshcontrol.core.wire.MapResponse;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MapSessionStateTest {

    @TempDir
    Path folder;
    Network network;
    final Caller admin = Caller.localAdmin();
    final MapContext context = new MapContext("TtestCNTRL", "mesh.test", DNSConfig.builder().domains(List.of("mesh.test"))
            .proxied(true).build(), new DERPMap(null, Map.of(), false));
    String key;

    @BeforeEach
    void setUp() {
        network = new TestNetwork(folder).network;
        network.users().create(admin, new Users.NewUser("odin", "Odin", "odin@example.com", Role.MEMBER));
        key = AuthKey.forUser("odin").reusable().create(network);
    }

    private Node join(String hostname) {
        return Machine.named(hostname).join(network, key);
    }

    private Node join(String hostname, String hostinfo) {
        return Machine.named(hostname).hostinfo(hostinfo).join(network, key);
    }

    private AccessRules allowAll() {
        return AccessRules.compile(io.meshcontrol.core.policy.Policy.EMPTY, network.snapshots().current());
    }

    /** The network as it is now, under these rules, routed as {@code routes} says. */
    private MapInputs inputs(AccessRules access, RouteTable routes) {
        return new MapInputs(network.snapshots().current(), access, routes, context, Instant.now());
    }

    private MapInputs inputs(AccessRules access) {
        return inputs(access, RouteTable.EMPTY);
    }

    private MapResponse initial(MapSessionState state) {
        return state.initial(inputs(allowAll()));
    }

    private Optional<MapResponse> update(MapSessionState state, Node... changed) {
        Set<Long> ids = java.util.Arrays.stream(changed).map(Node::id).collect(java.util.stream.Collectors.toSet());
        return state.update(new ChangeSet(ids, Set.of(), false), inputs(allowAll()));
    }

    @Test
    void firstMessageIsAFullMapWithSelfPeersAndProfiles() {
        Node a = join("a");
        Node b = join("b");
        network.presence().connected(b);
        MapSessionState state = new MapSessionState(a.id(), 142);
        MapResponse first = state.initial(inputs(allowAll()));
        assertEquals("a.mesh.test.", first.node().name());
        assertEquals("TtestCNTRL", first.node().stableTailnetId());
        assertEquals(List.of(b.id()), first.peers().stream().map(io.meshcontrol.core.wire.Node::id).toList());
        assertEquals(Boolean.TRUE, first.peers().getFirst().online());
        assertEquals("odin@example.com", first.userProfiles().getFirst().loginName());
        assertEquals("mesh.test", first.domain());
    }

    @Test
    void changesBecomeDeltasAndNothingIsSentTwice() {
        Node a = join("a");
        Node b = join("b");
        MapSessionState state = new MapSessionState(a.id(), 142);
        initial(state);

        Node renamed = network.nodes().rename(admin, b.id(), "bee");
        MapResponse delta = update(state, renamed).orElseThrow();
        assertEquals("bee.mesh.test.", delta.peersChanged().getFirst().name());
        assertTrue(update(state, renamed).isEmpty(), "the same state is not sent again");

        Node c = join("c");
        assertEquals(c.id(), update(state, c).orElseThrow().peersChanged().getFirst().id());

        network.nodes().delete(admin, b.id());
        assertEquals(List.of(b.id()), update(state, b).orElseThrow().peersRemoved());
        assertEquals(Set.of(c.id()), state.peerIds());
    }

    @Test
    void nodesWaitingForApprovalAreInvisibleAndSeeNobody() {
        Node a = join("a");
        network.settings().update(admin, new Settings.Change(true, null, null, null));
        Node waiting = join("waiting");
        MapSessionState forA = new MapSessionState(a.id(), 142);
        assertTrue(initial(forA).peers().isEmpty());
        MapSessionState forWaiting = new MapSessionState(waiting.id(), 142);
        MapResponse held = initial(forWaiting);
        assertFalse(held.node().machineAuthorized());
        assertTrue(held.peers().isEmpty());

        Node approved = network.nodes().approve(admin, waiting.id());
        assertEquals(waiting.id(), update(forA, approved).orElseThrow().peersChanged().getFirst().id());
        MapResponse nowApproved = update(forWaiting, approved).orElseThrow();
        assertTrue(nowApproved.node().machineAuthorized());
        assertEquals(a.id(), nowApproved.peersChanged().getFirst().id(), "once approved it sees its peers");
    }

    @Test
    void aSuspendedNodeLosesItsPeersAndIsRemovedFromTheirsUntilUnsuspended() {
        Node a = join("a");
        Node b = join("b");
        MapSessionState forA = new MapSessionState(a.id(), 142);
        MapSessionState forB = new MapSessionState(b.id(), 142);
        initial(forA);
        initial(forB);

        Node suspended = network.nodes().suspend(admin, b.id());
        assertEquals(List.of(b.id()), update(forA, suspended).orElseThrow().peersRemoved());
        assertEquals(List.of(a.id()), update(forB, suspended).orElseThrow().peersRemoved(), "it sees nobody");
        assertTrue(new MapSessionState(b.id(), 142).initial(inputs(allowAll())).peers().isEmpty());
        assertTrue(new MapSessionState(a.id(), 142).initial(inputs(allowAll())).peers().isEmpty());

        Node back = network.nodes().unsuspend(admin, b.id());
        assertEquals(b.id(), update(forA, back).orElseThrow().peersChanged().getFirst().id());
        assertEquals(a.id(), update(forB, back).orElseThrow().peersChanged().getFirst().id());
    }

    @Test
    void oldClientsGetTheLegacyDerpString() {
        Node a = join("a", "{\"Hostname\":\"a\",\"NetInfo\":{\"PreferredDERP\":999}}");
        Node b = join("b");
        MapSessionState old = new MapSessionState(b.id(), 110);
        io.meshcontrol.core.wire.Node peer = initial(old)
                .peers().getFirst();
        assertEquals(999, peer.homeDerp());
        assertEquals("127.3.3.40:999", peer.legacyDerp());
        assertEquals(a.id(), peer.id());
    }

    private AccessRules rules(String policy) {
        return AccessRules.compile(io.meshcontrol.core.policy.Policy.parse(policy), network.snapshots().current(),
                "https://control.test");
    }

    private Optional<MapResponse> policyChanged(MapSessionState state, AccessRules rules) {
        return state.update(ChangeSet.policyChanged(), inputs(rules));
    }

    @Test
    void sshPolicyAndCapabilitiesAreInTheFirstMapAndFollowThePolicy() {
        Node a = join("a");
        Node b = join("b");
        String ssh = "{\"ssh\": [{\"action\": \"accept\", \"src\": [\"autogroup:member\"],"
                + " \"dst\": [\"autogroup:self\"], \"users\": [\"root\"]}]}";
        MapSessionState state = new MapSessionState(a.id(), 142);
        MapResponse first = state.initial(inputs(rules(ssh)));
        assertEquals(1, first.sshPolicy().rules().size());
        assertEquals(Map.of("root", "root"), first.sshPolicy().rules().getFirst().sshUsers());
        assertTrue(first.node().capMap().containsKey("https://tailscale.com/cap/ssh"), "lets the client run SSH");

        AccessRules attrs = rules("{\"nodeAttrs\": [{\"target\": [\"odin@example.com\"], \"attr\": [\"randomize-client-port\"]}]}");
        MapResponse delta = policyChanged(state, attrs).orElseThrow();
        assertEquals(List.of(), delta.sshPolicy().rules(), "the SSH rules are gone");
        assertTrue(delta.node().capMap().containsKey("randomize-client-port"));
        assertEquals(null, delta.dnsConfig(), "a policy change resends no DNS");
        assertEquals(null, delta.derpMap(), "nor the relay map");
        assertTrue(delta.peersChanged().isEmpty(), "peers look as before");
        assertTrue(policyChanged(state, attrs).isEmpty(), "the same policy again: nothing");
    }

    /** Twenty nodes besides the viewer: one that sees two of them sees fewer than one node in eight. */
    private List<Node> twentyOthers() {
        List<Node> others = new java.util.ArrayList<>();
        for (int i = 0; i < 20; i++) {
            others.add(join("n" + i));
        }
        return others;
    }

    /** Rules by which {@code a} reaches {@code x} and {@code y}, listed y first: the map must still give id order. */
    private AccessRules reaching(Node a, Node x, Node y) {
        return rules("{\"acls\": [{\"action\": \"accept\", \"src\": [\"" + a.ipv4() + "\"],"
                + " \"dst\": [\"" + y.ipv4() + ":22\", \"" + x.ipv4() + ":22\"]}]}");
    }

    @Test
    void aViewerThatSeesFewOfManyNodesGetsThemInIdOrderAsTheWalkOfAllWouldGiveThem() {
        Node a = join("a");
        List<Node> others = twentyOthers();
        Node x = others.get(4);
        Node y = others.get(15);
        AccessRules aToXAndY = reaching(a, x, y);
        assertTrue(2 * MapSessionState.SPARSE_VIEW < network.snapshots().current().entries().size(),
                "a sees few enough for its map to be built from them");
        MapSessionState forA = new MapSessionState(a.id(), 142);
        MapResponse first = forA.initial(inputs(aToXAndY));
        assertEquals(List.of(x.id(), y.id()), first.peers().stream().map(io.meshcontrol.core.wire.Node::id).toList());

        MapResponse walked = new MapSessionState(others.getLast().id(), 142).initial(inputs(allowAll()));
        for (io.meshcontrol.core.wire.Node peer : first.peers()) {
            assertEquals(walked.peers().stream().filter(p -> p.id() == peer.id()).findFirst().orElseThrow(), peer,
                    "the same form as in a map that walked every node");
        }
        assertEquals(Set.of(x.id(), y.id()), forA.peerIds());
        Node unseen = network.nodes().rename(admin, others.get(7).id(), "unseen");
        assertTrue(forA.update(new ChangeSet(Set.of(unseen.id()), Set.of(), false), inputs(aToXAndY)).isEmpty());
        Node renamed = network.nodes().rename(admin, x.id(), "ex");
        assertEquals(List.of("ex.mesh.test."), forA.update(new ChangeSet(Set.of(renamed.id()), Set.of(), false),
                inputs(aToXAndY)).orElseThrow().peersChanged().stream().map(io.meshcontrol.core.wire.Node::name)
                .toList());
    }

    @Test
    void aStreamBehindOnBatchesNamingManyNodesSendsItsOwnPeersChangesAndNothingElse() {
        Node a = join("a");
        List<Node> others = twentyOthers();
        Node x = others.get(4);
        Node y = others.get(15);
        AccessRules aToXAndY = reaching(a, x, y);
        MapSessionState forA = new MapSessionState(a.id(), 142);
        forA.initial(inputs(aToXAndY));

        network.nodes().rename(admin, y.id(), "why");
        network.nodes().delete(admin, x.id());
        Set<Long> firstBatch = new java.util.HashSet<>(Set.of(x.id()));
        Set<Long> secondBatch = new java.util.HashSet<>(Set.of(y.id()));
        for (int i = 0; i < 10; i++) {
            Node renamed = network.nodes().rename(admin, others.get(i == 4 ? 16 : i).id(), "other" + i);
            (i % 2 == 0 ? firstBatch : secondBatch).add(renamed.id());
        }
        ChangeSet missed = ChangeSet.mergeAll(List.of(new ChangeSet(firstBatch, Set.of(), false),
                new ChangeSet(secondBatch, Set.of(), false)));
        assertTrue(missed.nodeCountAtMost() > 4, "the batches name more nodes than A sees and was sent");

        // Compiled again for the batch's snapshot, as the batcher does: x, gone, is known only as a peer sent before.
        MapResponse delta = forA.update(missed, inputs(reaching(a, x, y))).orElseThrow();
        assertEquals(List.of("why.mesh.test."), delta.peersChanged().stream().map(io.meshcontrol.core.wire.Node::name)
                .toList());
        assertEquals(List.of(x.id()), delta.peersRemoved());
        assertEquals(Set.of(y.id()), forA.peerIds());
    }

    @Test
    void aPolicyChangeReachesOnlyTheNodesItAffects() {
        Node a = join("a");
        Node b = join("b");
        Node c = join("c");
        AccessRules aToB = rules("{\"acls\": [{\"action\": \"accept\", \"src\": [\"" + a.ipv4() + "\"],"
                + " \"dst\": [\"" + b.ipv4() + ":22\"]}]}");
        MapSessionState forA = new MapSessionState(a.id(), 142);
        MapSessionState forC = new MapSessionState(c.id(), 142);
        forA.initial(inputs(aToB));
        forC.initial(inputs(aToB));
        AccessRules aToBAnd80 = rules("{\"acls\": [{\"action\": \"accept\", \"src\": [\"" + a.ipv4() + "\"],"
                + " \"dst\": [\"" + b.ipv4() + ":22,80\"]}]}");
        assertTrue(policyChanged(forA, aToBAnd80).isEmpty(), "A's filter, SSH policy and peers are unchanged");
        assertTrue(policyChanged(forC, aToBAnd80).isEmpty(), "C is not concerned at all");
        AccessRules aToC = rules("{\"acls\": [{\"action\": \"accept\", \"src\": [\"" + a.ipv4() + "\"],"
                + " \"dst\": [\"" + c.ipv4() + ":22\"]}]}");
        MapResponse toA = policyChanged(forA, aToC).orElseThrow();
        assertEquals(List.of(c.id()), toA.peersChanged().stream().map(io.meshcontrol.core.wire.Node::id).toList());
        assertEquals(List.of(b.id()), toA.peersRemoved());
        MapResponse toC = policyChanged(forC, aToC).orElseThrow();
        assertEquals(1, toC.packetFilter().size(), "C now enforces the rule");
    }

    @Test
    void aPolicyChangeThatKeepsWhomANodeSeesStillSendsThePeersThatChangedWithIt() {
        Node a = join("a");
        Node b = join("b");
        join("c");
        MapSessionState state = new MapSessionState(a.id(), 142);
        state.initial(inputs(rules("{\"acls\": [{\"action\": \"accept\", \"src\": [\"*\"], \"dst\": [\"*:22\"]}]}")));
        network.nodes().rename(admin, b.id(), "bee");
        AccessRules port443 = rules("{\"acls\": [{\"action\": \"accept\", \"src\": [\"*\"], \"dst\": [\"*:443\"]}]}");
        MapResponse delta = state.update(new ChangeSet(Set.of(b.id()), Set.of(), false, true), inputs(port443))
                .orElseThrow();
        assertEquals(List.of("bee.mesh.test."), delta.peersChanged().stream().map(io.meshcontrol.core.wire.Node::name)
                .toList(), "the renamed peer, and no other: the policy left whom A sees as it was");
        assertEquals(io.meshcontrol.core.wire.PortRange.of(443),
                delta.packetFilter().getFirst().dstPorts().getFirst().ports());
    }

    @Test
    void routersCarryTheRoutesTheyServeInAllowedIpsAndPrimaryRoutes() {
        Node a = join("a");
        Node router = join("router",
                "{\"Hostname\":\"router\",\"RoutableIPs\":[\"10.1.0.0/16\",\"0.0.0.0/0\",\"::/0\"]}");
        MapSessionState forA = new MapSessionState(a.id(), 142);
        io.meshcontrol.core.wire.Node unapproved = initial(forA).peers().getFirst();
        assertEquals(unapproved.addresses(), unapproved.allowedIps(), "advertised alone routes nothing");

        Node approved = network.routeApprovals().setApproved(admin, router.id(), List.of("10.1.0.0/16", "::/0"));
        RouteTable routes = RouteTable.elect(network.snapshots().current().nodes().values(), id -> true);
        MapResponse delta = forA.update(new ChangeSet(Set.of(router.id()), Set.of(), false), inputs(allowAll(), routes))
                .orElseThrow();
        io.meshcontrol.core.wire.Node peer = delta.peersChanged().getFirst();
        assertEquals(List.of("0.0.0.0/0", "10.1.0.0/16", approved.ipv4() + "/32", "::/0", approved.ipv6() + "/128"),
                peer.allowedIps().stream().map(Object::toString).toList());
        assertEquals(List.of("10.1.0.0/16"), peer.primaryRoutes().stream().map(Object::toString).toList(),
                "exit routes are never primary");

        MapSessionState forRouter = new MapSessionState(router.id(), 142);
        MapResponse own = forRouter.initial(inputs(allowAll(), routes));
        assertEquals(peer.allowedIps(), own.node().allowedIps(), "the router's self node says the same");

        network.snapshots().touch(router.id()); // what the route election does for a router it re-elected
        MapResponse failedOver = forA.update(new ChangeSet(Set.of(router.id()), Set.of(), false), inputs(allowAll()))
                .orElseThrow();
        assertEquals(List.of(), failedOver.peersChanged().getFirst().primaryRoutes(), "no longer primary");
    }

    @Test
    void globalExitNodesAreSuggestedWithTheirPriorityAndEveryNodeMaySteer() {
        Node a = join("a");
        String exitHostinfo = "{\"Hostname\":\"exit\",\"RoutableIPs\":[\"0.0.0.0/0\",\"::/0\"]}";
        Node exitA = join("exit-a", exitHostinfo);
        Node exitB = join("exit-b", exitHostinfo);
        network.routeApprovals().setApproved(admin, exitA.id(), List.of("0.0.0.0/0"));
        network.routeApprovals().setApproved(admin, exitB.id(), List.of("0.0.0.0/0"));
        PeerForms shared = new PeerForms();
        MapResponse before = new MapSessionState(a.id(), 142, shared).initial(inputs(allowAll(),
                network.routeElection().current()));
        assertTrue(before.peers().stream().allMatch(p -> p.capMap().containsKey("suggest-exit-node")),
                "rule 1: every approved exit node is suggested while none is marked");
        assertFalse(before.node().capMap().containsKey("auto-exit-node"));

        network.routeApprovals().setGlobalExitNode(admin, exitB.id(), null, 7);
        MapResponse after = new MapSessionState(a.id(), 142, shared).initial(inputs(allowAll(),
                network.routeElection().current()));
        io.meshcontrol.core.wire.Node seenA = after.peers().stream().filter(p -> p.id() == exitA.id()).findFirst()
                .orElseThrow();
        io.meshcontrol.core.wire.Node seenB = after.peers().stream().filter(p -> p.id() == exitB.id()).findFirst()
                .orElseThrow();
        assertFalse(seenA.capMap().containsKey("suggest-exit-node"), "rule 1: only marked nodes once one is");
        assertTrue(seenB.capMap().containsKey("suggest-exit-node"));
        assertEquals(7, seenB.hostinfo().fields().location().priority(), "rule 3: the priority as Location.Priority");
        assertTrue(after.node().capMap().containsKey("auto-exit-node"), "rule 2");
        assertTrue(after.node().capMap().containsKey("traffic-steering"), "rule 3");
        assertFalse(new MapSessionState(exitB.id(), 142, shared).initial(inputs(allowAll(),
                network.routeElection().current())).node().capMap().containsKey("suggest-exit-node"),
                "a node's own view does not suggest itself");
    }

    private static String inRegion(String name, int region, String... routes) {
        return "{\"Hostname\":\"" + name + "\",\"RoutableIPs\":[" + String.join(",",
                java.util.Arrays.stream(routes).map(r -> "\"" + r + "\"").toList()) + "],\"NetInfo\":{\"PreferredDERP\":"
                + region + "}}";
    }

    private RouteTable regionalRoutes() {
        return RouteTable.elect(network.snapshots().current().nodes().values(), id -> true,
                n -> io.meshcontrol.core.wire.Hostinfo.homeRegion(n.hostinfo()), RouteTable.EMPTY);
    }

    private static List<String> primaryRoutesOf(List<io.meshcontrol.core.wire.Node> peers, long id) {
        return peers.stream().filter(p -> p.id() == id).findFirst().orElseThrow().primaryRoutes().stream()
                .map(Object::toString).toList();
    }

    @Test
    void aClientIsSteeredToTheRouterInItsHomeRegionAndAgainWhenItMoves() {
        Node viewer = join("viewer", inRegion("viewer", 2));
        Node r1 = join("r1", inRegion("r1", 1, "10.1.0.0/16"));
        Node r2 = join("r2", inRegion("r2", 2, "10.1.0.0/16"));
        network.routeApprovals().setApproved(admin, r1.id(), List.of("10.1.0.0/16"));
        network.routeApprovals().setApproved(admin, r2.id(), List.of("10.1.0.0/16"));
        MapSessionState forViewer = new MapSessionState(viewer.id(), 142);
        MapResponse first = forViewer.initial(inputs(allowAll(), regionalRoutes()));
        assertEquals(List.of("10.1.0.0/16"), primaryRoutesOf(first.peers(), r2.id()), "r2 is in the viewer's region");
        assertEquals(List.of(), primaryRoutesOf(first.peers(), r1.id()), "r1, the tailnet-wide primary, is not used");
        assertTrue(first.peers().stream().filter(p -> p.id() == r1.id()).findFirst().orElseThrow().allowedIps().stream()
                .noneMatch(p -> p.toString().equals("10.1.0.0/16")));
        Node other = join("other", inRegion("other", 9));
        assertEquals(List.of("10.1.0.0/16"), primaryRoutesOf(new MapSessionState(other.id(), 142)
                .initial(inputs(allowAll(), regionalRoutes())).peers(), r1.id()),
                "a region without a router uses the tailnet-wide primary");

        network.nodes().updateFromClient(viewer.id(), null, null, inRegion("viewer", 1), List.of());
        MapResponse moved = forViewer.update(new ChangeSet(Set.of(viewer.id()), Set.of(), false),
                inputs(allowAll(), regionalRoutes())).orElseThrow();
        assertEquals(List.of("10.1.0.0/16"), primaryRoutesOf(moved.peersChanged(), r1.id()), "steered again");
        assertEquals(List.of(), primaryRoutesOf(moved.peersChanged(), r2.id()));
    }

    @Test
    void aPeersRoutesAreOfferedOnlyToTheNodesThePolicyLetsUseThem() {
        Node a = join("a");
        Node b = join("b");
        Node router = join("router", "{\"Hostname\":\"router\",\"RoutableIPs\":[\"10.1.0.0/16\"]}");
        network.routeApprovals().setApproved(admin, router.id(), List.of("10.1.0.0/16"));
        RouteTable routes = RouteTable.elect(network.snapshots().current().nodes().values(), id -> true);
        AccessRules onlyA = rules("{\"acls\": [{\"action\": \"accept\", \"src\": [\"" + a.ipv4() + "\"],"
                + " \"dst\": [\"10.1.0.0/16:443\"]}, {\"action\": \"accept\", \"src\": [\"" + router.ipv4() + "\"],"
                + " \"dst\": [\"" + b.ipv4() + ":22\"]}]}");
        io.meshcontrol.core.wire.Node seenByA = new MapSessionState(a.id(), 142).initial(inputs(onlyA, routes)).peers()
                .getFirst();
        assertEquals(List.of("10.1.0.0/16"), seenByA.primaryRoutes().stream().map(Object::toString).toList());
        assertTrue(seenByA.allowedIps().stream().anyMatch(p -> p.toString().equals("10.1.0.0/16")));
        io.meshcontrol.core.wire.Node seenByB = new MapSessionState(b.id(), 142).initial(inputs(onlyA, routes)).peers()
                .getFirst();
        assertEquals(router.id(), seenByB.id(), "B sees the router, which may reach it");
        assertEquals(seenByB.addresses(), seenByB.allowedIps(), "but not its subnet, which B may not use");
        assertEquals(List.of(), seenByB.primaryRoutes());
    }

    @Test
    void aPolicyChangeResendsARouterOnlyToViewersWhoseOfferedRoutesChanged() {
        Node a = join("a");
        Node b = join("b");
        Node router = join("router", "{\"Hostname\":\"router\",\"RoutableIPs\":[\"10.1.0.0/16\"]}");
        network.routeApprovals().setApproved(admin, router.id(), List.of("10.1.0.0/16"));
        RouteTable routes = RouteTable.elect(network.snapshots().current().nodes().values(), id -> true);
        String peersMayMeet = "{\"action\": \"accept\", \"src\": [\"" + a.ipv4() + "\", \"" + b.ipv4() + "\", \""
                + router.ipv4() + "\"], \"dst\": [\"" + a.ipv4() + ":22\", \"" + b.ipv4() + ":22\", \""
                + router.ipv4() + ":22\"]}";
        AccessRules onlyA = rules("{\"acls\": [" + peersMayMeet + ", {\"action\": \"accept\", \"src\": [\""
                + a.ipv4() + "\"], \"dst\": [\"10.1.0.0/16:443\"]}]}");
        PeerForms forms = new PeerForms();
        MapSessionState forA = new MapSessionState(a.id(), 142, forms);
        MapSessionState forB = new MapSessionState(b.id(), 142, forms);
        forA.initial(inputs(onlyA, routes));
        io.meshcontrol.core.wire.Node routerSeenByB = forB.initial(inputs(onlyA, routes)).peers().stream()
                .filter(p -> p.id() == router.id()).findFirst().orElseThrow();
        assertEquals(List.of(), routerSeenByB.primaryRoutes(), "B may not use the subnet yet");

        AccessRules onlyAPort80Too = rules("{\"acls\": [" + peersMayMeet + ", {\"action\": \"accept\", \"src\": [\""
                + a.ipv4() + "\"], \"dst\": [\"10.1.0.0/16:443,80\"]}]}");
        Optional<MapResponse> toA = forA.update(ChangeSet.policyChanged(), inputs(onlyAPort80Too, routes));
        assertTrue(toA.isEmpty(), "A's filter is the same and it is offered the same routes: nothing, " + toA);
        Optional<MapResponse> toB = forB.update(ChangeSet.policyChanged(), inputs(onlyAPort80Too, routes));
        assertTrue(toB.isEmpty(), "B is still offered nothing: the router is not sent again, " + toB);

        AccessRules both = rules("{\"acls\": [" + peersMayMeet + ", {\"action\": \"accept\", \"src\": [\""
                + a.ipv4() + "\", \"" + b.ipv4() + "\"], \"dst\": [\"10.1.0.0/16:443\"]}]}");
        MapResponse nowB = forB.update(ChangeSet.policyChanged(), inputs(both, routes)).orElseThrow();
        assertEquals(List.of(router.id()), nowB.peersChanged().stream().map(io.meshcontrol.core.wire.Node::id)
                .toList(), "only the router, none of the peers without routes");
        assertEquals(List.of("10.1.0.0/16"), nowB.peersChanged().getFirst().primaryRoutes().stream()
                .map(Object::toString).toList());
        Optional<MapResponse> sameForA = forA.update(ChangeSet.policyChanged(), inputs(both, routes));
        assertTrue(sameForA.map(m -> m.peersChanged().isEmpty()).orElse(true),
                "A was offered the subnet before: the router is not sent again, " + sameForA);
    }

    @Test
    void sessionsShareEachPeersEncodedFormAndKeepNoCopy() {
        Node a = join("a");
        Node b = join("b");
        Node c = join("c");
        PeerForms forms = new PeerForms();
        MapResponse forA = new MapSessionState(a.id(), 142, forms).initial(inputs(allowAll()));
        MapResponse forC = new MapSessionState(c.id(), 142, forms).initial(inputs(allowAll()));
        assertSame(encodedPeer(forA, b.id()), encodedPeer(forC, b.id()), "one encoded form of b for both sessions");
        assertEquals(3, forms.size(), "one form per node, however many sessions");
        assertTrue(io.meshcontrol.core.wire.WireJson.writeString(forA).contains(encodedPeer(forA, b.id()).json()),
                "the message carries the shared JSON as it is");

        Node renamed = network.nodes().rename(admin, b.id(), "bee");
        MapSessionState later = new MapSessionState(a.id(), 142, forms);
        later.initial(inputs(allowAll()));
        assertEquals(3, forms.size(), "the changed node's form replaces the old one");
        assertEquals("bee.mesh.test.", renamed.givenName() + ".mesh.test.");
    }

    /** A deleted node's forms go; once a chunk of ids holds none it is dropped, and forms are built again later. */
    @Test
    void forgottenNodesLeaveNoFormsAndLaterMapsBuildThemAgain() {
        Node a = join("a");
        Node b = join("b");
        Node c = join("c");
        PeerForms forms = new PeerForms();
        new MapSessionState(a.id(), 142, forms).initial(inputs(allowAll()));
        new MapSessionState(c.id(), 142, forms).initial(inputs(allowAll()));
        assertEquals(3, forms.size());

        forms.forget(b.id());
        assertEquals(2, forms.size());
        forms.forget(a.id());
        forms.forget(c.id());
        assertEquals(0, forms.size());

        MapResponse again = new MapSessionState(a.id(), 142, forms).initial(inputs(allowAll()));
        assertEquals(2, forms.size(), "b and c built again for a's map");
        assertEquals("b.mesh.test.", encodedPeer(again, b.id()).node().name());
    }

    @Test
    void aPeerThatGoesAwayAndComesBackIsNotEncodedAgain() {
        Node a = join("a");
        Node b = join("b");
        PeerForms forms = new PeerForms();
        NetworkSnapshot offline = network.snapshots().current();
        network.presence().connected(b);
        NetworkSnapshot online = network.snapshots().current();
        EncodedNodes.Encoded onlineForm = encodedPeer(initialOn(online, a, forms), b.id());
        EncodedNodes.Encoded offlineForm = encodedPeer(initialOn(offline, a, forms), b.id());
        assertEquals(Boolean.TRUE, onlineForm.node().online());
        assertEquals(Boolean.FALSE, offlineForm.node().online());
        assertSame(onlineForm, encodedPeer(initialOn(online, a, forms), b.id()),
                "a session on an older snapshot does not push the newer form out");

        network.presence().disconnected(b);
        network.presence().connected(b);
        assertSame(onlineForm, encodedPeer(initialOn(network.snapshots().current(), a, forms), b.id()),
                "back online with the same row: the form it had");
    }

    private MapResponse initialOn(NetworkSnapshot snapshot, Node viewer, PeerForms forms) {
        return new MapSessionState(viewer.id(), 142, forms).initial(new MapInputs(snapshot,
                AccessRules.compile(io.meshcontrol.core.policy.Policy.EMPTY, snapshot), RouteTable.EMPTY, context,
                Instant.now()));
    }

    @Test
    void aChangedPeerIsSentExactlyOnceHoweverOftenItIsNamed() {
        Node a = join("a");
        Node b = join("b");
        MapSessionState state = new MapSessionState(a.id(), 142);
        initial(state);
        network.nodes().updateFromClient(b.id(), null, List.of("192.0.2.7:41641"), null, null);
        network.nodes().rename(admin, b.id(), "bee");
        MapResponse delta = update(state, b, b).orElseThrow();
        assertEquals(1, delta.peersChanged().size(), "two changes of b in one batch: b once");
        assertEquals("bee.mesh.test.", delta.peersChanged().getFirst().name());
        assertTrue(update(state, b).isEmpty(), "named again without a change: nothing");
        assertTrue(update(state, a).isEmpty(), "our own unchanged node: nothing");
    }

    private List<Node> joinMany(int count) {
        List<Node> nodes = new java.util.ArrayList<>();
        for (int i = 0; i < count; i++) {
            nodes.add(join("n" + i));
        }
        return nodes;
    }

    private static List<EncodedNodes.Block> blocks(MapResponse map) {
        return ((EncodedNodes) map.peers()).parts().stream().filter(EncodedNodes.Block.class::isInstance)
                .map(EncodedNodes.Block.class::cast).toList();
    }

    private static List<Long> ids(List<? extends io.meshcontrol.core.wire.Node> nodes) {
        return nodes.stream().map(io.meshcontrol.core.wire.Node::id).toList();
    }

    @Test
    void fullMapsCarryWholeBlocksOfPeersSharedByEveryViewer() {
        List<Node> nodes = joinMany(PeerForms.BLOCK_IDS + 6);
        Node last = nodes.getLast();
        Node neighbour = nodes.get(nodes.size() - 2);
        PeerForms forms = new PeerForms();
        MapResponse lastMap = initial(new MapSessionState(last.id(), 142, forms));
        MapResponse neighbourMap = initial(new MapSessionState(neighbour.id(), 142, forms));

        List<Long> firstBlock = nodes.stream().map(Node::id).filter(id -> PeerForms.blockOf(id) == 0).toList();
        assertEquals(1, blocks(lastMap).size(), "the block the viewer is in goes as single peers");
        assertEquals(firstBlock, ids(blocks(lastMap).getFirst().members().stream().map(e -> e.node()).toList()));
        assertSame(blocks(lastMap).getFirst(), blocks(neighbourMap).getFirst(), "one block for both viewers");
        assertEquals(nodes.stream().map(Node::id).filter(id -> id != last.id()).toList(), ids(lastMap.peers()),
                "every peer, in id order");

        MapResponse firstMap = initial(new MapSessionState(nodes.getFirst().id(), 142, forms));
        assertEquals(List.of(PeerForms.blockOf(last.id())), blocks(firstMap).stream()
                .map(b -> PeerForms.blockOf(b.members().getFirst().node().id())).toList());
    }

    @Test
    void aPeerThatChangedGivesItsBlockANewForm() {
        List<Node> nodes = joinMany(PeerForms.BLOCK_IDS + 2);
        PeerForms forms = new PeerForms();
        EncodedNodes.Block before = blocks(initial(new MapSessionState(nodes.getLast().id(), 142, forms))).getFirst();
        assertSame(before, blocks(initial(new MapSessionState(nodes.getLast().id(), 142, forms))).getFirst());

        network.presence().connected(nodes.get(3));
        EncodedNodes.Block after = blocks(initial(new MapSessionState(nodes.getLast().id(), 142, forms))).getFirst();
        assertFalse(before == after, "a new block");
        assertEquals(Boolean.TRUE, after.members().get(3).node().online());
        assertEquals(Boolean.FALSE, before.members().get(3).node().online());
    }

    @Test
    void aViewerThatDoesNotSeeAllOfABlockGetsItsPeersSingly() {
        List<Node> nodes = joinMany(PeerForms.BLOCK_IDS + 2);
        Node served = nodes.get(1);
        AccessRules onlyToServed = rules("{\"acls\": [{\"action\": \"accept\", \"src\": [\"*\"], \"dst\": [\""
                + served.ipv4() + ":*\"]}]}");
        MapResponse viewer = new MapSessionState(nodes.getLast().id(), 142, new PeerForms())
                .initial(inputs(onlyToServed));
        assertEquals(List.of(served.id()), ids(viewer.peers()));
        assertEquals(List.of(), blocks(viewer));

        MapResponse servedMap = new MapSessionState(served.id(), 142, new PeerForms()).initial(inputs(onlyToServed));
        assertEquals(nodes.size() - 1, servedMap.peers().size());
        assertEquals(List.of(PeerForms.blockOf(nodes.getLast().id())), blocks(servedMap).stream()
                .map(b -> PeerForms.blockOf(b.members().getFirst().node().id())).toList());
    }

    @Test
    void aPolicyChangeRemovesAPeerDeletedMeanwhileAndKeepsTheOthers() {
        Node a = join("a");
        Node b = join("b");
        Node c = join("c");
        MapSessionState state = new MapSessionState(a.id(), 142);
        initial(state);
        network.nodes().delete(admin, b.id());
        MapResponse delta = policyChanged(state, allowAll()).orElseThrow();
        assertEquals(List.of(b.id()), delta.peersRemoved());
        assertEquals(Set.of(c.id()), state.peerIds());
    }

    @Test
    void losingSightOfAPeerRemovesItAndRegainingItSendsItWhole() {
        Node a = join("a");
        Node b = join("b");
        MapSessionState state = new MapSessionState(a.id(), 142);
        initial(state);
        AccessRules nobody = AccessRules.compile(io.meshcontrol.core.policy.Policy.parse("{\"acls\": []}"),
                network.snapshots().current());
        MapResponse hidden = state.update(ChangeSet.all(), inputs(nobody))
                .orElseThrow();
        assertEquals(List.of(b.id()), hidden.peersRemoved());
        assertEquals(List.of(), hidden.packetFilter(), "nothing may reach a");
        assertEquals(Set.of(), state.peerIds());

        MapResponse shown = state.update(ChangeSet.all(), inputs(allowAll())).orElseThrow();
        assertEquals(List.of(b.id()), shown.peersChanged().stream().map(io.meshcontrol.core.wire.Node::id).toList());
    }

    @Test
    void aPeerComingAndGoingIsPatchedNotSentWhole() {
        Node a = join("a");
        Node b = join("b");
        MapSessionState state = new MapSessionState(a.id(), 142);
        assertEquals(Boolean.FALSE, initial(state).peers().getFirst().online());

        network.presence().connected(b);
        MapResponse online = update(state, b).orElseThrow();
        assertEquals(List.of(), online.peersChanged());
        assertEquals(List.of(io.meshcontrol.core.wire.PeerChange.of(b.id()).online(true).build()),
                online.peersChangedPatch());

        network.presence().disconnected(b);
        MapResponse offline = update(state, b).orElseThrow();
        Instant lastSeen = network.snapshots().current().node(b.id()).orElseThrow().lastSeen();
        assertEquals(List.of(io.meshcontrol.core.wire.PeerChange.of(b.id()).online(false).lastSeen(lastSeen).build()),
                offline.peersChangedPatch(), "offline, with the last-seen time just stored");
        assertEquals(List.of(), offline.peersChanged());

        network.presence().connected(b);
        network.nodes().rename(admin, b.id(), "bee");
        MapResponse renamed = update(state, b).orElseThrow();
        assertEquals(List.of(), renamed.peersChangedPatch(), "a row change sends the whole peer");
        assertEquals(Boolean.TRUE, renamed.peersChanged().getFirst().online());
        assertEquals("bee.mesh.test.", renamed.peersChanged().getFirst().name());
    }

    @Test
    void taggingALivePeerSendsTheTaggedDevicesProfileWithIt() {
        network.policies().set(admin, "{\"tagOwners\": {\"tag:server\": [\"odin@example.com\"]}}", null);
        Node a = join("a");
        Node b = join("b");
        MapSessionState state = new MapSessionState(a.id(), 142);
        initial(state);

        Node tagged = network.nodes().setTags(admin, b.id(), List.of("tag:server"));
        MapResponse delta = state.update(new ChangeSet(Set.of(tagged.id()), Set.of(), false),
                inputs(AccessRules.compile(network.policies().policy(), network.snapshots().current()))).orElseThrow();
        long owner = delta.peersChanged().getFirst().user();
        assertEquals(WireNodes.TAGGED_DEVICES_USER_ID, owner);
        assertEquals(List.of("tagged-devices"), delta.userProfiles().stream()
                .filter(profile -> profile.id() == owner).map(io.meshcontrol.core.wire.UserProfile::loginName).toList(),
                "peers learn who owns the tagged node in the same message");
        assertEquals("mesh.test", delta.domain(), "which makes the vendor's client rebuild its netmap with the profile");
    }

    private static EncodedNodes.Encoded encodedPeer(MapResponse message, long id) {
        return ((EncodedNodes) message.peers()).encoded().stream()
                .filter(peer -> peer.node().id() == id).findFirst().orElseThrow();
    }

    @Test
    void aNewClientReleaseReachesOlderClientsAsClientVersionAndNotNewerOnes() {
        Node old = join("old", "{\"Hostname\":\"old\",\"IPNVersion\":\"1.80.3-t1234abcd-gabcdef\"}");
        Node current = join("current", "{\"Hostname\":\"current\",\"IPNVersion\":\"1.102.5-tabc\"}");
        MapSessionState forOld = new MapSessionState(old.id(), 142);
        MapSessionState forCurrent = new MapSessionState(current.id(), 142);
        assertEquals(io.meshcontrol.core.wire.ClientVersion.latest(), forOld.initial(inputs(allowAll())).clientVersion());
        forCurrent.initial(inputs(allowAll()));

        MapContext released = context.withLatestClientVersion("1.102.5");
        MapInputs now = new MapInputs(network.snapshots().current(), allowAll(), RouteTable.EMPTY, released, Instant.now());
        var told = forOld.update(ChangeSet.all(), now).orElseThrow().clientVersion();
        assertFalse(told.runningLatest());
        assertEquals("1.102.5", told.latestVersion());
        assertTrue(told.notifyUser() && told.notifyText().contains("1.80.3"), told.notifyText());
        assertEquals(null, forCurrent.update(ChangeSet.all(), now).orElseThrow().clientVersion(),
                "a client already on the release is told nothing new");
        assertEquals(null, forOld.update(ChangeSet.all(), now).orElseThrow().clientVersion(), "told once");
    }

    @Test
    void theDialPlanGoesOutInTheFirstMapAndWithEveryContextChange() {
        Node a = join("a");
        var plan = new io.meshcontrol.core.wire.ControlDialPlan(List.of(new io.meshcontrol.core.wire.ControlDialPlan
                .Candidate(io.meshcontrol.core.net.IpAddress.parse("192.0.2.10"), "", 0, 10, 1)));
        MapContext withPlan = context.withDialPlan(plan);
        MapSessionState state = new MapSessionState(a.id(), 142);
        MapInputs in = new MapInputs(network.snapshots().current(), allowAll(), RouteTable.EMPTY, withPlan, Instant.now());
        assertEquals(plan, state.initial(in).controlDialPlan());
        assertEquals(plan, state.update(ChangeSet.all(), in).orElseThrow().controlDialPlan());
        assertEquals(null, new MapSessionState(a.id(), 142).initial(inputs(allowAll())).controlDialPlan());
    }
}
