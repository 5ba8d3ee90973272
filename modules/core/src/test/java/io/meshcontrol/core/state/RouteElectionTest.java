package io.meshcontrol.core.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.core.event.MeshEvent;
import io.meshcontrol.core.model.Node;
import io.meshcontrol.core.model.Role;
import io.meshcontrol.core.net.IpPrefix;
import io.meshcontrol.core.store.Database;
import io.meshcontrol.core.testing.AuthKey;
import io.meshcontrol.core.testing.Machine;
import io.meshcontrol.core.testing.TestNetwork;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The primary router of a shared prefix follows presence, and both sides of a failover are announced. */
class RouteElectionTest {

    private static final List<IpPrefix> LAN = List.of(IpPrefix.parse("10.1.0.0/16"));

    @TempDir
    Path folder;

    private Network network(boolean highAvailability) {
        TestNetwork net = new TestNetwork(folder, new NetworkOptions("100.64.0.0/10", "fd7a:115c:a1e0::/48",
                io.meshcontrol.core.address.AddressPool.Allocation.SEQUENTIAL, java.time.Duration.ZERO,
                highAvailability));
        net.user("odin", Role.MEMBER);
        return net.network;
    }

    private static Node router(Network network, String name) {
        Node node = Machine.named(name).advertising("10.1.0.0/16").join(network, AuthKey.forUser("odin").create(network));
        return network.routeApprovals().setApproved(io.meshcontrol.core.auth.Caller.localAdmin(), node.id(),
                List.of("10.1.0.0/16"));
    }

    @Test
    void whenThePrimaryGoesOfflineTheNextOnlineRouterServesAndPeersHearOfBoth() {
        Network network = network(true);
        Node r1 = router(network, "r1");
        Node r2 = router(network, "r2");
        RouteElection election = network.routeElection();
        assertEquals(List.of(), election.current().primaryRoutes(r1.id()), "offline routers serve nothing");

        network.presence().connected(r1);
        network.presence().connected(r2);
        assertEquals(LAN, election.current().primaryRoutes(r1.id()), "the lowest id takes the prefix");
        assertEquals(List.of(), election.current().primaryRoutes(r2.id()));

        List<MeshEvent> events = new ArrayList<>();
        network.events().subscribe(events::add);
        network.presence().disconnected(r1);
        assertEquals(LAN, election.current().primaryRoutes(r2.id()), "failover to r2");
        assertTrue(events.stream().anyMatch(e -> e instanceof MeshEvent.NodeChanged c && c.node().id() == r2.id()),
                "r2 is announced: peers must route the prefix to it");

        network.presence().connected(r1);
        assertEquals(LAN, election.current().primaryRoutes(r2.id()), "r1 is back but does not take it back");
        assertEquals(List.of(), election.current().primaryRoutes(r1.id()));

        network.presence().disconnected(r1);
        network.nodes().delete(io.meshcontrol.core.auth.Caller.localAdmin(), r2.id());
        assertEquals(java.util.Map.of(), election.current().primaries(), "no router left online");
    }

    @Test
    void markingAGlobalExitNodeTellsEveryStreamAndTouchesTheExitNodesItDemotes() {
        Network network = network(true);
        Node exitA = Machine.named("exit-a").advertising("0.0.0.0/0", "::/0")
                .join(network, AuthKey.forUser("odin").create(network));
        Node exitB = Machine.named("exit-b").advertising("0.0.0.0/0", "::/0")
                .join(network, AuthKey.forUser("odin").create(network));
        io.meshcontrol.core.auth.Caller admin = io.meshcontrol.core.auth.Caller.localAdmin();
        network.routeApprovals().setApproved(admin, exitA.id(), List.of("0.0.0.0/0"));
        network.routeApprovals().setApproved(admin, exitB.id(), List.of("0.0.0.0/0"));
        assertTrue(network.routeElection().current().exits().suggests(network.snapshots().current().node(exitA.id())
                .orElseThrow()));
        List<StateChange> changes = new ArrayList<>();
        network.snapshots().subscribe(changes::add);

        network.routeApprovals().setGlobalExitNode(admin, exitB.id(), true, 10);

        assertEquals(java.util.Map.of(exitB.id(), 10), network.routeElection().current().exits().marked());
        assertTrue(changes.stream().anyMatch(c -> c instanceof StateChange.NodeAttributesChanged),
                "every node's own attributes changed (auto-exit-node, traffic-steering)");
        assertTrue(changes.stream().anyMatch(c -> c instanceof StateChange.NodeChanged n && n.nodeId() == exitA.id()),
                "exit-a is no longer suggested: its peers must hear of it");
    }

    @Test
    void withoutHighAvailabilityTheLowestIdKeepsThePrefixOnlineOrNot() {
        Network network = network(false);
        Node r1 = router(network, "r1");
        Node r2 = router(network, "r2");
        network.presence().connected(r2);
        assertEquals(LAN, network.routeElection().current().primaryRoutes(r1.id()));
        assertEquals(List.of(), network.routeElection().current().primaryRoutes(r2.id()));
    }
}
