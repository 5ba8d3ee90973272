package io.meshcontrol.core.routes;

import static io.meshcontrol.core.routes.Machines.node;
import static io.meshcontrol.core.routes.Machines.prefixes;
import static io.meshcontrol.core.routes.Machines.router;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.core.model.Node;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class RouteTableTest {

    private static final Node R1 = router(1, "10.1.0.0/16");
    private static final Node R2 = router(2, "10.1.0.0/16", "192.168.7.0/24");
    private static final Node R3 = router(3, "10.1.0.0/16");

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
        RouteTable r1Offline = RouteTable.elect(List.of(R1, R2, R3), id -> id != 1, before);
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
        RouteTable failedOver = RouteTable.elect(List.of(R1, R2, R3), id -> id != 1, before);
        RouteTable recovered = RouteTable.elect(List.of(R1, R2, R3), id -> true, failedOver);
        assertEquals(failedOver, recovered, "R2 keeps 10.1.0.0/16 while it stays healthy");
        assertEquals(List.of(), recovered.primaryRoutes(1));

        RouteTable r2Down = RouteTable.elect(List.of(R1, R2, R3), id -> id != 2, recovered);
        assertEquals(prefixes("10.1.0.0/16"), r2Down.primaryRoutes(1), "the lowest healthy id takes it next");
        assertEquals(List.of(), r2Down.primaryRoutes(3));
    }

    @Test
    void aPrimaryThatStopsAdvertisingHandsThePrefixOn() {
        RouteTable before = RouteTable.elect(List.of(R1, R2, R3), id -> true);
        Node r1Withdrawn = R1.withClientState(null, List.of(), "{}", prefixes());
        RouteTable after = RouteTable.elect(List.of(r1Withdrawn, R2, R3), id -> true, before);
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
}
