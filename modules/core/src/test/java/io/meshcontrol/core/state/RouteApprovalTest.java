package io.meshcontrol.core.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.core.MeshException;
import io.meshcontrol.core.auth.Caller;
import io.meshcontrol.core.event.MeshEvent;
import io.meshcontrol.core.key.MachinePrivateKey;
import io.meshcontrol.core.key.MachinePublicKey;
import io.meshcontrol.core.model.AuditEntry;
import io.meshcontrol.core.model.Node;
import io.meshcontrol.core.model.Role;
import io.meshcontrol.core.net.IpPrefix;
import io.meshcontrol.core.store.Database;
import io.meshcontrol.core.testing.AuthKey;
import io.meshcontrol.core.testing.Machine;
import io.meshcontrol.core.testing.TestNetwork;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Approving routes by hand and by the policy's auto-approvers, stored with the node. */
class RouteApprovalTest {

    private static final String POLICY = """
            {
              "tagOwners": {"tag:router": ["odin@"], "tag:exit": ["odin@"]},
              "autoApprovers": {"routes": {"10.0.0.0/8": ["tag:router"]}, "exitNode": ["tag:exit"]},
            }
            """;

    @TempDir
    Path folder;
    TestNetwork net;
    final List<MeshEvent> events = new ArrayList<>();

    @BeforeEach
    void setUp() {
        net = new TestNetwork(folder);
        net.user("odin", Role.MEMBER);
        net.network.events().subscribe(events::add);
    }

    private static List<IpPrefix> prefixes(String... texts) {
        return Arrays.stream(texts).map(IpPrefix::parse).toList();
    }

    private static String hostinfo(String... routes) {
        return "{\"Hostname\":\"r\",\"RoutableIPs\":[" + String.join(",",
                Arrays.stream(routes).map(r -> "\"" + r + "\"").toList()) + "]}";
    }

    private Node join(MachinePublicKey machine, List<String> tags, String... routes) {
        String key = net.authKey(AuthKey.of(tags.isEmpty() ? "odin" : null, tags));
        return net.join(Machine.named("r").machineKey(machine).advertising(routes), key);
    }

    private Node join(List<String> tags, String... routes) {
        return join(MachinePrivateKey.generate().publicKey(), tags, routes);
    }

    private Node advertise(Node node, String... routes) {
        return net.network.nodes().updateFromClient(node.id(), null, null, hostinfo(routes), prefixes(routes));
    }

    private Node stored(Node node) {
        return net.network.snapshots().current().node(node.id()).orElseThrow();
    }

    @Test
    void advertisedRoutesWaitForApprovalWhichIsStored() {
        Node router = join(List.of(), "10.1.0.0/16", "192.168.1.0/24");
        assertEquals(prefixes("10.1.0.0/16", "192.168.1.0/24"), router.advertisedRoutes());
        assertEquals(List.of(), router.approvedRoutes(), "no policy: nothing is approved automatically");

        Node approved = net.network.routeApprovals().setApproved(net.admin, router.id(), List.of("10.1.0.0/16"));
        assertEquals(prefixes("10.1.0.0/16"), approved.approvedRoutes());
        assertEquals(prefixes("10.1.0.0/16"), stored(router).activeRoutes());
        assertTrue(events.getLast() instanceof MeshEvent.NodeChanged changed && changed.node().id() == router.id());

        Network reopened = net.reopened(folder);
        Node again = reopened.snapshots().current().node(router.id()).orElseThrow();
        assertEquals(prefixes("10.1.0.0/16"), again.approvedRoutes(), "kept in the database");
        assertEquals(prefixes("10.1.0.0/16", "192.168.1.0/24"), again.advertisedRoutes());

        net.network.routeApprovals().setApproved(net.admin, router.id(), List.of());
        assertEquals(List.of(), stored(router).approvedRoutes(), "an empty list clears");
    }

    @Test
    void approvingTheRoutesAlreadyApprovedChangesNothing() {
        Node router = join(List.of(), "10.1.0.0/16", "0.0.0.0/0", "::/0");
        RouteApprovals approvals = net.network.routeApprovals();
        Node approved = approvals.setApproved(net.admin, router.id(), List.of("10.1.0.0/16", "0.0.0.0/0"));
        int audited = net.network.auditLog().recent("node.routes", 100).size();
        int published = events.size();
        List<StateChange> feed = new ArrayList<>();
        net.network.snapshots().subscribe(feed::add);
        long version = net.network.snapshots().current().version();

        // The same routes again, given in another order, one exit route standing for both as before.
        Node again = approvals.setApproved(net.admin, router.id(), List.of("::/0", "10.1.0.0/16"));

        assertEquals(approved, again);
        assertEquals(audited, net.network.auditLog().recent("node.routes", 100).size(), "no audit entry");
        assertEquals(published, events.size(), "no event");
        assertEquals(List.of(), feed, "no change on the feed: map streams hear nothing");
        assertEquals(version, net.network.snapshots().current().version());
    }

    @Test
    void anApprovalGivenAheadTakesEffectWhenTheRouteIsAdvertised() {
        Node router = join(List.of());
        net.network.routeApprovals().setApproved(net.admin, router.id(), List.of("172.16.0.0/12"));
        assertEquals(List.of(), stored(router).activeRoutes());
        Node advertising = advertise(router, "172.16.0.0/12");
        assertEquals(prefixes("172.16.0.0/12"), advertising.activeRoutes());
        assertEquals(List.of(), advertise(router).activeRoutes(), "withdrawn by the client");
        assertEquals(prefixes("172.16.0.0/12"), stored(router).approvedRoutes(), "the approval stays");
    }

    @Test
    void markingAGlobalExitNodeApprovesItsExitRoutesAndKeepsThePriorityUntilCleared() {
        Node exit = join(List.of(), "0.0.0.0/0", "::/0", "10.4.0.0/16");
        RouteApprovals approvals = net.network.routeApprovals();
        approvals.setApproved(net.admin, exit.id(), List.of("10.4.0.0/16"));

        Node marked = approvals.setGlobalExitNode(net.admin, exit.id(), null, 5);
        assertEquals(5, marked.globalExitPriority());
        assertEquals(prefixes("0.0.0.0/0", "10.4.0.0/16", "::/0"), marked.approvedRoutes(), "exit routes approved");
        assertEquals(5, approvals.setGlobalExitNode(net.admin, exit.id(), true, null).globalExitPriority(),
                "marking again without a priority keeps it");
        assertEquals(5, net.reopened(folder).snapshots().current().node(exit.id()).orElseThrow().globalExitPriority(),
                "kept in the database");

        Node cleared = approvals.setGlobalExitNode(net.admin, exit.id(), false, null);
        assertFalse(cleared.isGlobalExitNode());
        assertEquals(prefixes("0.0.0.0/0", "10.4.0.0/16", "::/0"), cleared.approvedRoutes(), "approved routes stay");
        assertEquals(0, approvals.setGlobalExitNode(net.admin, exit.id(), null, null).globalExitPriority(),
                "the priority was reset to 0 by clearing");
    }

    @Test
    void markingAndClearingAGlobalExitNodeAreEachAudited() {
        Node exit = join(List.of(), "0.0.0.0/0", "::/0");
        RouteApprovals approvals = net.network.routeApprovals();
        approvals.setGlobalExitNode(net.admin, exit.id(), null, 4);
        approvals.setGlobalExitNode(net.admin, exit.id(), false, null);

        List<AuditEntry> entries = net.network.auditLog().recent("node.globalexit", 10);
        assertEquals(2, entries.size(), entries.toString());
        AuditEntry cleared = entries.get(0);
        AuditEntry marked = entries.get(1);
        assertEquals(Long.toString(exit.id()), marked.target());
        assertEquals(net.admin.actor(), marked.actor());
        assertEquals("4", marked.details().get("newGlobalExitPriority"));
        assertEquals("[0.0.0.0/0, ::/0]", marked.details().get("newApprovedRoutes"), "marking approved the exit routes");
        assertEquals("4", cleared.details().get("oldGlobalExitPriority"));
        assertEquals("", cleared.details().get("newGlobalExitPriority"));

        approvals.setGlobalExitNode(net.admin, exit.id(), false, null);
        assertEquals(2, net.network.auditLog().recent("node.globalexit", 10).size(), "clearing no mark changes nothing");
    }

    @Test
    void aNodeAdvertisingNoExitRouteIsRefusedAsGlobalExitNodeByName() {
        Node router = join(List.of(), "10.5.0.0/16");
        MeshException refused = assertThrows(MeshException.class,
                () -> net.network.routeApprovals().setGlobalExitNode(net.admin, router.id(), null, null));
        assertEquals(MeshException.Reason.INVALID, refused.reason());
        assertTrue(refused.getMessage().startsWith("node " + router.givenName() + " advertises no exit route"),
                refused.getMessage());
        assertFalse(stored(router).isGlobalExitNode());
        assertEquals(List.of(), stored(router).approvedRoutes(), "no exit route approved either");
        assertEquals(List.of(), net.network.auditLog().recent("node.globalexit", 10));
    }

    @Test
    void aNegativePriorityOrOneWithClearingIsRefusedAndNothingChanges() {
        Node exit = join(List.of(), "0.0.0.0/0", "::/0");
        RouteApprovals approvals = net.network.routeApprovals();
        MeshException negative = assertThrows(MeshException.class,
                () -> approvals.setGlobalExitNode(net.admin, exit.id(), true, -1));
        assertTrue(negative.getMessage().contains("0 or more"), negative.getMessage());
        assertThrows(MeshException.class, () -> approvals.setGlobalExitNode(net.admin, exit.id(), false, 3));
        assertFalse(stored(exit).isGlobalExitNode());
        assertEquals(List.of(), stored(exit).approvedRoutes());
        assertThrows(MeshException.class, () -> approvals.setGlobalExitNode(net.admin, 9999, true, null));
    }

    @Test
    void approvingEitherExitRouteApprovesBoth() {
        Node exit = join(List.of(), "0.0.0.0/0", "::/0");
        assertEquals(prefixes("0.0.0.0/0", "::/0"),
                net.network.routeApprovals().setApproved(net.admin, exit.id(), List.of("::/0")).approvedRoutes());
    }

    @Test
    void badRoutesAndMissingScopesChangeNothing() {
        Node router = join(List.of(), "10.1.0.0/16");
        MeshException bad = assertThrows(MeshException.class, () -> net.network.routeApprovals()
                .setApproved(net.admin, router.id(), List.of("10.1.0.0/16", "10.1.0.1/16")));
        assertEquals("route \"10.1.0.1/16\" has host bits set; the prefix is 10.1.0.0/16", bad.getMessage());
        net.user("ivan", Role.IT_ADMIN);
        Caller coreOnly = net.callerFor("ivan", List.of("devices:core"));
        MeshException forbidden = assertThrows(MeshException.class, () -> net.network.routeApprovals()
                .setApproved(coreOnly, router.id(), List.of("10.1.0.0/16")));
        assertEquals(MeshException.Reason.FORBIDDEN, forbidden.reason());
        assertEquals(List.of(), stored(router).approvedRoutes());
        Caller routes = net.callerFor("ivan", List.of("devices:routes"));
        assertEquals(prefixes("10.1.0.0/16"),
                net.network.routeApprovals().setApproved(routes, router.id(), List.of("10.1.0.0/16")).approvedRoutes());
        assertEquals(MeshException.Reason.NOT_FOUND, assertThrows(MeshException.class,
                () -> net.network.routeApprovals().setApproved(net.admin, 999, List.of())).reason());
    }

    @Test
    void autoApproversApproveOnRegistrationAndWhenRoutesAreAdvertisedLater() {
        net.policy(POLICY);
        Node router = join(List.of("tag:router"), "10.1.0.0/16", "172.16.0.0/12");
        assertEquals(prefixes("10.1.0.0/16"), router.approvedRoutes(), "inside 10.0.0.0/8 only");

        Node later = advertise(router, "10.1.0.0/16", "10.2.0.0/16", "172.16.0.0/12");
        assertEquals(prefixes("10.1.0.0/16", "10.2.0.0/16"), later.approvedRoutes());

        Node exit = join(List.of("tag:exit"), "0.0.0.0/0", "::/0");
        assertEquals(prefixes("0.0.0.0/0", "::/0"), exit.approvedRoutes());
        Node userExit = join(List.of(), "0.0.0.0/0", "::/0");
        assertEquals(List.of(), userExit.approvedRoutes(), "odin is no exit approver");
    }

    @Test
    void taggingANodeLetsItsTagsApprove() {
        net.policy(POLICY);
        Node router = join(List.of(), "10.1.0.0/16");
        assertEquals(List.of(), router.approvedRoutes());
        Node tagged = net.network.nodes().setTags(net.admin, router.id(), List.of("tag:router"));
        assertEquals(prefixes("10.1.0.0/16"), tagged.approvedRoutes());
    }

    @Test
    void aNewPolicyApprovesWaitingRoutesAndWithdrawsNothing() {
        net.policy("{\"tagOwners\": {\"tag:router\": [\"odin@\"], \"tag:exit\": [\"odin@\"]}}");
        Node router = join(List.of("tag:router"), "10.1.0.0/16");
        Node exit = join(List.of("tag:exit"), "0.0.0.0/0", "::/0");
        Node manual = join(List.of("tag:router"), "192.168.5.0/24");
        net.network.routeApprovals().setApproved(net.admin, manual.id(), List.of("192.168.5.0/24"));
        assertEquals(List.of(), stored(router).approvedRoutes());

        events.clear();
        net.policy(POLICY);
        assertEquals(prefixes("10.1.0.0/16"), stored(router).approvedRoutes());
        assertEquals(prefixes("0.0.0.0/0", "::/0"), stored(exit).approvedRoutes());
        assertTrue(events.stream().anyMatch(e -> e instanceof MeshEvent.NodeChanged c && c.node().id() == router.id()),
                "peers hear of the approval");

        net.policy("{\"tagOwners\": {\"tag:router\": [\"odin@\"], \"tag:exit\": [\"odin@\"]}}");
        assertEquals(prefixes("10.1.0.0/16"), stored(router).approvedRoutes(), "auto-approvals are not withdrawn");
        assertEquals(prefixes("192.168.5.0/24"), stored(manual).approvedRoutes());
    }

    @Test
    void anAutogroupApprovesAsItMatchesInTheRules() {
        // The parsed policy's alias, not a second reading of the text (which took it for a login naming nobody).
        net.policy("{\"autoApprovers\": {\"routes\": {\"10.0.0.0/8\": [\"autogroup:member\"]}}}");
        Node router = join(List.of(), "10.1.0.0/16", "172.16.0.0/12");
        assertEquals(prefixes("10.1.0.0/16"), router.approvedRoutes());
    }

    @Test
    void aPolicyWithBadAutoApproversIsRefused() {
        MeshException refused = assertThrows(MeshException.class, () -> net.policy(
                "{\"autoApprovers\": {\"routes\": {\"10.0.0.0/8\": [\"tag:undefined\"]}}}"));
        assertEquals("autoApprovers.routes[\"10.0.0.0/8\"]: tag not found: \"tag:undefined\"", refused.getMessage());
    }

    @Test
    void reRegistrationKeepsApprovalsOnlyUnderTheSameOwner() {
        MachinePublicKey machine = MachinePrivateKey.generate().publicKey();
        Node router = join(machine, List.of(), "10.1.0.0/16");
        net.network.routeApprovals().setApproved(net.admin, router.id(), List.of("10.1.0.0/16"));
        assertEquals(prefixes("10.1.0.0/16"), join(machine, List.of(), "10.1.0.0/16").approvedRoutes());

        net.policy("{\"tagOwners\": {\"tag:lab\": [\"odin@\"]}}");
        Node retagged = join(machine, List.of("tag:lab"), "10.1.0.0/16");
        assertEquals(router.id(), retagged.id());
        assertEquals(List.of(), retagged.approvedRoutes(), "the tags did not get the user's approval");
    }
}
