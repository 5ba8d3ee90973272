package io.meshcontrol.core.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.core.MeshException;
import io.meshcontrol.core.auth.Caller;
import io.meshcontrol.core.model.App;
import io.meshcontrol.core.model.AuditEntry;
import io.meshcontrol.core.model.Node;
import io.meshcontrol.core.model.Role;
import io.meshcontrol.core.net.IpPrefix;
import io.meshcontrol.core.testing.AuthKey;
import io.meshcontrol.core.testing.Machine;
import io.meshcontrol.core.testing.TestNetwork;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Apps as stored (validation, audit, scopes) and the routes their connectors have approved (behaviour items 1, 2). */
class AppsTest {

    private static final String POLICY = """
            {"tagOwners": {"tag:connector": [], "tag:other": []}}
            """;

    @TempDir
    Path folder;
    TestNetwork net;
    Apps apps;

    @BeforeEach
    void setUp() {
        net = new TestNetwork(folder);
        net.user("odin", Role.MEMBER);
        net.policy(POLICY);
        apps = net.network.apps();
    }

    static App app(String name, List<String> domains, List<String> connectors, List<String> routes) {
        return new App(0, name, null, domains, connectors, routes, null, null);
    }

    private App create(String name, List<String> domains, List<String> routes) {
        return apps.create(net.admin, app(name, domains, List.of("tag:connector"), routes)).app();
    }

    static String connectorHostinfo(boolean connector, String... routes) {
        return "{\"Hostname\":\"c\",\"AppConnector\":" + connector + ",\"RoutableIPs\":[" + String.join(",",
                Arrays.stream(routes).map(r -> "\"" + r + "\"").toList())
                + "],\"Services\":[{\"Proto\":\"peerapi4\",\"Port\":41555}]}";
    }

    private Node connector(String tag, boolean runsConnector) {
        String key = net.authKey(tag == null ? AuthKey.forUser("odin") : AuthKey.forTags(tag));
        return net.join(Machine.named("c").hostinfo(connectorHostinfo(runsConnector)), key);
    }

    private Node advertise(Node node, String... routes) {
        return net.network.nodes().updateFromClient(node.id(), null, null, connectorHostinfo(true, routes),
                Arrays.stream(routes).map(IpPrefix::parse).toList());
    }

    private List<String> approved(Node node) {
        return net.network.snapshots().current().node(node.id()).orElseThrow().approvedRoutes().stream()
                .map(IpPrefix::toString).toList();
    }

    @Test
    void anAppIsStoredNormalizedAndAudited() {
        App created = apps.create(net.admin, app(" github ", List.of("GitHub.com.", "*.github.io"), List.of(),
                List.of("192.0.2.0/24"))).app();
        assertEquals("github", created.name());
        assertEquals(List.of("github.com", "*.github.io"), created.domains());
        assertEquals(List.of("*"), created.connectors(), "connectors default to every connector");
        App updated = apps.update(net.admin, created.id(), app("github", List.of("github.com"), List.of("tag:connector"),
                List.of())).app();
        assertEquals(List.of("tag:connector"), updated.connectors());
        assertEquals(updated, net.reopened(folder).apps().get(net.admin, created.id()).app(), "kept in the database");
        apps.delete(net.admin, created.id());
        List<String> actions = net.network.auditLog().recent(null, 3).stream().map(AuditEntry::action).toList();
        assertEquals(List.of("app.delete", "app.update", "app.create"), actions);
        assertEquals(String.valueOf(created.id()), net.network.auditLog().recent("app.create", 1).getFirst().target());
        assertEquals(MeshException.Reason.NOT_FOUND, assertThrows(MeshException.class,
                () -> apps.get(net.admin, created.id())).reason());
    }

    @Test
    void badAppsAreRefusedNamingTheProblem() {
        assertEquals("app route 0.0.0.0/0 is refused: an app cannot route all traffic; use an exit node for that",
                refused(app("a", List.of("a.com"), List.of(), List.of("0.0.0.0/0"))));
        assertTrue(refused(app("a", List.of("a.com"), List.of(), List.of("::/0"))).startsWith("app route ::/0"));
        assertTrue(refused(app("", List.of("a.com"), List.of(), List.of())).startsWith("an app name has 1 to 63"));
        assertTrue(refused(app("x".repeat(64), List.of("a.com"), List.of(), List.of()))
                .startsWith("an app name has 1 to 63"));
        assertEquals(63, apps.create(net.admin, app("x".repeat(63), List.of("a.com"), List.of(), List.of())).app()
                .name().length());
        assertTrue(refused(app("a", List.of("not a domain"), List.of(), List.of())).startsWith("invalid app domain"));
        assertTrue(refused(app("a", List.of("a.com"), List.of("connector"), List.of())).startsWith("invalid tag"));
        assertTrue(refused(app("a", List.of(), List.of(), List.of())).contains("at least one domain or route"));
        apps.create(net.admin, app("taken", List.of("a.com"), List.of(), List.of()));
        MeshException duplicate = assertThrows(MeshException.class,
                () -> apps.create(net.admin, app("taken", List.of("b.com"), List.of(), List.of())));
        assertEquals(MeshException.Reason.CONFLICT, duplicate.reason());
        assertEquals(2, apps.list(net.admin).size(), "nothing refused was stored");
    }

    private String refused(App app) {
        return assertThrows(MeshException.class, () -> apps.create(net.admin, app)).getMessage();
    }

    @Test
    void readingNeedsPolicyFileReadAndWritingPolicyFile() {
        net.user("ivan", Role.IT_ADMIN);
        Caller reader = net.callerFor("ivan", List.of("policy_file:read"));
        create("github", List.of("github.com"), List.of());
        assertEquals(1, apps.list(reader).size());
        assertEquals(MeshException.Reason.FORBIDDEN, assertThrows(MeshException.class,
                () -> apps.create(reader, app("x", List.of("x.com"), List.of(), List.of()))).reason());
    }

    @Test
    void learnedSingleAddressesAndPrefixesInsideStaticRoutesAreApprovedOthersWait() {
        create("github", List.of("github.com"), List.of("192.0.2.0/24"));
        Node connector = connector("tag:connector", true);
        advertise(connector, "140.82.112.3/32", "2606:50c0::1/128", "192.0.2.128/25", "198.51.100.0/24",
                "0.0.0.0/0", "::/0");
        assertEquals(List.of("192.0.2.128/25", "140.82.112.3/32", "2606:50c0::1/128"), approved(connector));

        Apps.Connector assigned = apps.list(net.admin).getFirst().connectors().getFirst();
        assertEquals(connector.id(), assigned.nodeId());
        assertEquals(3, assigned.learnedRoutes());
        assertEquals(3, assigned.pendingRoutes(), "the broader subnet and both exit routes wait");
    }

    @Test
    void aConnectorJoiningWithItsRoutesAlreadyAdvertisedRegistersWithItsAppRoutesApproved() {
        create("intranet", List.of(), List.of("10.50.0.0/24"));
        Node joined = net.join(Machine.named("c").hostinfo(connectorHostinfo(true, "10.50.0.0/24", "10.51.0.0/24")),
                net.authKey(AuthKey.forTags("tag:connector")));
        assertEquals(List.of("10.50.0.0/24"), approved(joined), "the static route is approved, the other one waits");
        assertEquals(1, apps.list(net.admin).getFirst().connectors().getFirst().learnedRoutes());
    }

    @Test
    void onlyTaggedMachinesRunningTheConnectorOfAMatchingTagAreConnectors() {
        create("github", List.of("github.com"), List.of());
        Node untagged = advertise(connector(null, true), "140.82.112.3/32");
        Node otherTag = advertise(connector("tag:other", true), "140.82.112.3/32");
        Node notRunning = net.network.nodes().updateFromClient(connector("tag:connector", false).id(), null, null,
                connectorHostinfo(false, "140.82.112.3/32"), List.of(IpPrefix.parse("140.82.112.3/32")));
        for (Node node : List.of(untagged, otherTag, notRunning)) {
            assertEquals(List.of(), approved(node), node.hostname() + " " + node.tags());
        }
        assertEquals(List.of(), apps.list(net.admin).getFirst().connectors());
    }

    @Test
    void theConnectorFlagIsReadFromTheHostinfoHoweverItIsSpaced() {
        create("github", List.of("github.com"), List.of());
        Node joined = connector("tag:connector", false);
        Node spaced = net.network.nodes().updateFromClient(joined.id(), null, null,
                "{\"Hostname\": \"c\", \"AppConnector\" :  true, \"RoutableIPs\": [\"140.82.112.3/32\"]}",
                List.of(IpPrefix.parse("140.82.112.3/32")));
        assertEquals(List.of("140.82.112.3/32"), approved(spaced));
    }

    @Test
    void anAppCreatedAfterTheConnectorLearnedApprovesWhatItAdvertises() {
        Node connector = advertise(connector("tag:connector", true), "140.82.112.3/32");
        assertEquals(List.of(), approved(connector));
        create("github", List.of("github.com"), List.of());
        assertEquals(List.of("140.82.112.3/32"), approved(connector));
    }

    @Test
    void aRemovedDomainsWithdrawnRouteLosesItsApprovalExitRoutesStay() {
        App github = create("github", List.of("github.com", "gitlab.com"), List.of());
        Node connector = advertise(connector("tag:connector", true), "140.82.112.3/32", "172.65.251.78/32",
                "0.0.0.0/0", "::/0");
        net.network.routeApprovals().setApproved(net.admin, connector.id(), List.of("0.0.0.0/0", "::/0",
                "140.82.112.3/32", "172.65.251.78/32"));
        apps.update(net.admin, github.id(), app("github", List.of("github.com"), List.of("tag:connector"),
                List.of()));
        // The connector (told to store its routes) withdraws the removed domain's address.
        advertise(connector, "140.82.112.3/32", "0.0.0.0/0", "::/0");
        assertEquals(List.of("0.0.0.0/0", "140.82.112.3/32", "::/0"), approved(connector));
    }

    @Test
    void deletingTheAppDropsLearnedApprovalsButNotAnAdministratorsOrExitRoutes() {
        App github = create("github", List.of("github.com"), List.of());
        Node connector = connector("tag:connector", true);
        net.network.routeApprovals().setApproved(net.admin, connector.id(), List.of("0.0.0.0/0", "10.9.9.9/32"));
        advertise(connector, "140.82.112.3/32", "10.9.9.9/32", "0.0.0.0/0", "::/0");
        assertEquals(List.of("0.0.0.0/0", "10.9.9.9/32", "140.82.112.3/32", "::/0"), approved(connector));
        apps.delete(net.admin, github.id());
        assertEquals(List.of("0.0.0.0/0", "10.9.9.9/32", "::/0"), approved(connector));
    }
}
