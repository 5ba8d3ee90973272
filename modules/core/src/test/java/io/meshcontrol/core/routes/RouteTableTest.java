package io.meshcontrol.core.routes;

import static io.meshcontrol.core.routes.Machines.node;
import static io.meshcontrol.core.routes.Machines.prefixes;
import static io.meshcontrol.core.routes.Machines.router;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.core.model.Node;
import io.meshcontrol.core.net.IpPrefix;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class RouteTableTest {

    private static final Node R1 = router(1, "10.1.0.0/16");
    private static final Node R2 = router(2, "10.1.0.0/16", "192.168.7.0/24");
    private static final Node R3 = router(3, "10.1.0.0/16");
    private static final java.util.function.ToIntFunction<Node> NOWHERE = node -> RouteTable.NO_REGION;
    private static final IpPrefix LAN = IpPrefix.parse("10.1.0.0/16");

    @Test
    void lowestNodeIdAmongOnlineRoutersIsPrimary() {
        RouteTable table = RouteTable.elect(List.of(R3, R2, R1), id -> true);
        assertEquals(prefixes("10.1.0.0/16"), table.primaryRoutes(1));
        assertEquals(prefixes("192.168.7.0/24"), table.primaryRoutes(2), "a prefix only R2 has stays with R2");
        assertEquals(List.of(), table.primaryRoutes(3));
    }

    @Test
    void primaryFailsOverToTheNextOnlineRouter() {
        RouteTable before = RouteTable.elect(List.of(R1, R2, R3), id -> true);
        RouteTable r1Offline = RouteTable.elect(List.of(R1, R2, R3), id -> id != 1, NOWHERE, before);
        assertEquals(prefixes("10.1.0.0/16", "192.168.7.0/24"), r1Offline.primaryRoutes(2));
        assertEquals(Set.of(1L, 2L), r1Offline.changedRouters(before), "both sides of the failover changed");

        RouteTable twoOffline = RouteTable.elect(List.of(R1, R2, R3), id -> id == 3);
        assertEquals(prefixes("10.1.0.0/16"), twoOffline.primaryRoutes(3));
        assertEquals(Map.of(), RouteTable.elect(List.of(R1, R2, R3), id -> false).primaries(),
                "no healthy router: nobody serves the prefix");
    }

    @Test
    void aRecoveredRouterDoesNotTakeThePrimaryBack() {
        RouteTable before = RouteTable.elect(List.of(R1, R2, R3), id -> true);
        RouteTable failedOver = RouteTable.elect(List.of(R1, R2, R3), id -> id != 1, NOWHERE, before);
        RouteTable recovered = RouteTable.elect(List.of(R1, R2, R3), id -> true, NOWHERE, failedOver);
        assertEquals(failedOver, recovered, "R2 keeps 10.1.0.0/16 while it stays healthy");
        assertEquals(List.of(), recovered.primaryRoutes(1));

        RouteTable r2Down = RouteTable.elect(List.of(R1, R2, R3), id -> id != 2, NOWHERE, recovered);
        assertEquals(prefixes("10.1.0.0/16"), r2Down.primaryRoutes(1), "the lowest healthy id takes it next");
        assertEquals(List.of(), r2Down.primaryRoutes(3));
    }

    @Test
    void aPrimaryThatStopsAdvertisingHandsThePrefixOn() {
        RouteTable before = RouteTable.elect(List.of(R1, R2, R3), id -> true);
        Node r1Withdrawn = R1.withClientState(null, List.of(), "{}", prefixes());
        RouteTable after = RouteTable.elect(List.of(r1Withdrawn, R2, R3), id -> true, NOWHERE, before);
        assertEquals(prefixes("10.1.0.0/16", "192.168.7.0/24"), after.primaryRoutes(2));
    }

    @Test
    void onlyRoutesBothAdvertisedAndApprovedAreServed() {
        Node approvedAhead = node(1, List.of(), prefixes(), prefixes("10.9.0.0/16"));
        Node waiting = node(2, List.of(), prefixes("10.9.0.0/16"), prefixes());
        Node unauthorized = router(3, "10.9.0.0/16").withAuthorized(false);
        RouteTable table = RouteTable.elect(List.of(approvedAhead, waiting, unauthorized), id -> true);
        assertEquals(Map.of(), table.primaries());

        Node advertisedLater = approvedAhead.withClientState(null, List.of(), "{}", prefixes("10.9.0.0/16"));
        assertEquals(prefixes("10.9.0.0/16"),
                RouteTable.elect(List.of(advertisedLater, waiting), id -> true).primaryRoutes(1));
    }

    @Test
    void exitRoutesAreServedByEveryExitNodeAndAreNeverPrimary() {
        Node exitA = router(1, "0.0.0.0/0", "::/0");
        Node exitB = router(2, "0.0.0.0/0", "::/0", "10.2.0.0/16");
        RouteTable table = RouteTable.elect(List.of(exitA, exitB), id -> true);
        assertEquals(List.of(), table.primaryRoutes(1));
        assertEquals(prefixes("0.0.0.0/0", "::/0"), table.servedBy(exitA));
        assertEquals(prefixes("0.0.0.0/0", "10.2.0.0/16", "::/0"), table.servedBy(exitB), "IPv4 first, shorter first");
        assertTrue(!table.primaries().containsKey(RoutePrefixes.EXIT_V4));
    }

    /** R1 and R3 at home in region 1, R2 in region 2. */
    private static int region(Node node) {
        return node.id() == 2 ? 2 : 1;
    }

    @Test
    void aClientIsSteeredToTheRouterOfItsHomeRegionElseToTheTailnetWidePrimary() {
        RouteTable table = RouteTable.elect(List.of(R1, R2, R3), id -> true, RouteTableTest::region, RouteTable.EMPTY);
        assertEquals(Map.of(LAN, Map.of(1, 1L, 2, 2L)), table.regionalPrimaries(), "192.168.7.0/24 is in one region");
        assertEquals(java.util.Optional.of(2L), table.routerFor(LAN, 2));
        assertEquals(java.util.Optional.of(1L), table.routerFor(LAN, 1));
        assertEquals(java.util.Optional.of(1L), table.routerFor(LAN, 7), "no router in region 7: the tailnet-wide one");
        assertEquals(java.util.Optional.of(1L), table.routerFor(LAN, RouteTable.NO_REGION), "no region: likewise");
        assertEquals(prefixes("10.1.0.0/16", "192.168.7.0/24"), table.primaryRoutesFor(2, 2));
        assertEquals(prefixes("192.168.7.0/24"), table.primaryRoutesFor(2, 1));
        assertEquals(List.of(), table.primaryRoutesFor(1, 2), "a region-2 client does not route the LAN to R1");
        assertEquals(prefixes("10.1.0.0/16"), table.primaryRoutesFor(1, 1));
    }

    @Test
    void whenARegionLosesItsRouterItsClientsUseTheTailnetWidePrimary() {
        RouteTable before = RouteTable.elect(List.of(R1, R2, R3), id -> true, RouteTableTest::region, RouteTable.EMPTY);
        RouteTable r2Down = RouteTable.elect(List.of(R1, R2, R3), id -> id != 2, RouteTableTest::region, before);
        assertEquals(Map.of(), r2Down.regionalPrimaries(), "routers left in one region only");
        assertEquals(java.util.Optional.of(1L), r2Down.routerFor(LAN, 2));
        assertTrue(r2Down.changedRouters(before).containsAll(Set.of(1L, 2L)), "both are seen differently in region 2");

        RouteTable r1Down = RouteTable.elect(List.of(R1, R2, R3), id -> id != 1, RouteTableTest::region, before);
        assertEquals(Map.of(LAN, Map.of(1, 3L, 2, 2L)), r1Down.regionalPrimaries(), "R3 takes region 1");
        RouteTable r1Back = RouteTable.elect(List.of(R1, R2, R3), id -> true, RouteTableTest::region, r1Down);
        assertEquals(r1Down.regionalPrimaries(), r1Back.regionalPrimaries(), "and keeps it when R1 returns");
    }
}
