package io.meshcontrol.core.netmap;

import io.meshcontrol.core.netmap.context.MapContext;
import io.meshcontrol.core.netmap.session.ChangeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.core.apps.AppConnectors;
import io.meshcontrol.core.model.App;
import io.meshcontrol.core.model.Node;
import io.meshcontrol.core.model.Role;
import io.meshcontrol.core.net.IpPrefix;
import io.meshcontrol.core.state.Network;
import io.meshcontrol.core.testing.AuthKey;
import io.meshcontrol.core.testing.Machine;
import io.meshcontrol.core.testing.TestNetwork;
import io.meshcontrol.core.wire.DERPMap;
import io.meshcontrol.core.wire.DNSConfig;
import io.meshcontrol.core.wire.DNSResolver;
import io.meshcontrol.core.wire.FilterRule;
import io.meshcontrol.core.wire.MapResponse;
import io.meshcontrol.core.wire.RawJson;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What maps carry for apps: the connector capability, split DNS to connectors, the connector's filter that decides
 * whom it answers, and the same-public-address skip (the spec's "App connector behavior" items 1, 3, 4 and 5).
 */
class AppConnectorMapTest {

    private static final String OPEN = """
            {"tagOwners": {"tag:connector": [], "tag:other": []},
             "acls": [{"action": "accept", "src": ["*"], "dst": ["*:*"]}]}
            """;

    @TempDir
    Path folder;
    TestNetwork net;
    Network network;
    MapContext context = new MapContext("TtestCNTRL", "mesh.test", DNSConfig.builder().proxied(true).build(),
            new DERPMap(null, Map.of(), false));

    @BeforeEach
    void setUp() {
        net = new TestNetwork(folder);
        network = net.network;
        net.user("odin", Role.MEMBER);
        net.policy(OPEN);
    }

    private App app(String name, List<String> domains, List<String> connectors, List<String> routes) {
        return network.apps().create(net.admin, new App(0, name, null, domains, connectors, routes, null, null)).app();
    }

    /** A tagged machine running the connector, with its PeerAPI on {@code port}, reporting {@code endpoint}. */
    private Node connector(String name, String tag, int port, String endpoint, String... routes) {
        Node joined = net.join(Machine.named(name), net.authKey(AuthKey.forTags(tag)));
        String hostinfo = "{\"Hostname\":\"" + name + "\",\"AppConnector\":true,\"RoutableIPs\":["
                + String.join(",", Arrays.stream(routes).map(r -> "\"" + r + "\"").toList())
                + "],\"Services\":[{\"Proto\":\"peerapi4\",\"Port\":" + port + "}]}";
        return network.nodes().updateFromClient(joined.id(), null, List.of(endpoint), hostinfo,
                Arrays.stream(routes).map(IpPrefix::parse).toList());
    }

    private Node laptop(String endpoint) {
        Node joined = net.join(Machine.named("laptop"), net.authKey(AuthKey.forUser("odin")));
        return reports(joined, endpoint);
    }

    private Node reports(Node node, String endpoint) {
        return network.nodes().updateFromClient(node.id(), null, List.of(endpoint), node.hostinfo(), List.of());
    }

    private MapInputs inputs() {
        var snapshot = network.snapshots().current();
        return new MapInputs(snapshot, AccessRules.compile(network.policies().policy(), snapshot),
                network.routeElection().current(), context.withApps(network.apps().current()), Instant.now());
    }

    private MapResponse mapOf(Node node) {
        return new MapSessionState(node.id(), 142).initial(inputs());
    }

    private static String url(Node connector, int port) {
        return "http://" + connector.ipv4() + ":" + port + "/dns-query";
    }

    private static List<String> resolvers(MapResponse map, String domain) {
        List<DNSResolver> resolvers = map.dnsConfig().routes().get(domain);
        return resolvers == null ? null : resolvers.stream().map(DNSResolver::addr).toList();
    }

    @Test
    void aConnectorGetsItsOwnAppsThroughTheNodeCapability() {
        app("github", List.of("*.github.io"), List.of("tag:connector"), List.of("192.0.2.0/24"));
        app("elsewhere", List.of("example.com"), List.of("tag:other"), List.of());
        Node connector = connector("c", "tag:connector", 41555, "203.0.113.1:41641");
        Map<String, List<RawJson>> caps = mapOf(connector).node().capMap();
        assertEquals(List.of(RawJson.parse("{\"name\":\"github\",\"domains\":[\"github.io\",\"*.github.io\"],"
                + "\"routes\":[\"192.0.2.0/24\"],\"connectors\":[\"tag:connector\"]}")),
                caps.get(AppConnectors.CAPABILITY), "only the apps it acts for; a wildcard with its base domain");
        assertTrue(caps.containsKey(AppConnectors.STORE_ROUTES), "it keeps learned routes, so it withdraws them");
        Map<String, List<RawJson>> laptopCaps = mapOf(laptop("198.51.100.1:41641")).node().capMap();
        assertFalse(laptopCaps.containsKey(AppConnectors.CAPABILITY));
        assertFalse(laptopCaps.containsKey(AppConnectors.STORE_ROUTES));
    }

    @Test
    void everyMachineGetsSplitDnsToTheConnectorsItSeesOnlineFirstButNotForItsOwnApps() {
        app("github", List.of("github.com", "*.github.io"), List.of("*"), List.of());
        Node first = connector("first", "tag:connector", 41001, "203.0.113.1:41641");
        Node second = connector("second", "tag:other", 41002, "203.0.113.2:41641");
        network.presence().connected(second);
        MapResponse laptop = mapOf(laptop("198.51.100.1:41641"));
        assertEquals(List.of(url(second, 41002), url(first, 41001)), resolvers(laptop, "github.com"),
                "online connectors first");
        assertEquals(List.of(url(second, 41002), url(first, 41001)), resolvers(laptop, "github.io"),
                "a wildcard is routed as its base domain, which covers every name under it");
        assertNull(resolvers(mapOf(first), "github.com"), "a connector resolves its own apps itself");
    }

    @Test
    void anAdministratorsSplitDnsRuleForTheDomainWins() {
        context = context.withDnsConfig(DNSConfig.builder().proxied(true)
                .routes(Map.of("github.com.", List.of(DNSResolver.at("192.0.2.53")))).build());
        app("github", List.of("github.com", "gitlab.com"), List.of("*"), List.of());
        Node connector = connector("c", "tag:connector", 41555, "203.0.113.1:41641");
        MapResponse laptop = mapOf(laptop("198.51.100.1:41641"));
        assertEquals(List.of("192.0.2.53"), resolvers(laptop, "github.com."));
        assertNull(resolvers(laptop, "github.com"));
        assertEquals(List.of(url(connector, 41555)), resolvers(laptop, "gitlab.com"));
    }

    @Test
    void aMachineSeesOnlyConnectorsThatAreItsPeers() {
        net.policy("""
                {"tagOwners": {"tag:connector": []},
                 "acls": [{"action": "accept", "src": ["odin@"], "dst": ["odin@:*"]}]}
                """);
        app("github", List.of("github.com"), List.of("*"), List.of());
        connector("c", "tag:connector", 41555, "203.0.113.1:41641");
        assertNull(resolvers(mapOf(laptop("198.51.100.1:41641")), "github.com"));
    }

    @Test
    void aSuspendedConnectorIsNobodysResolverUntilItIsUnsuspended() {
        app("github", List.of("github.com"), List.of("*"), List.of());
        Node connector = connector("c", "tag:connector", 41555, "203.0.113.1:41641");
        Node laptop = laptop("198.51.100.1:41641");
        network.nodes().suspend(net.admin, connector.id());
        assertNull(resolvers(mapOf(laptop), "github.com"), "a suspended node is no one's peer, so no one's resolver");
        network.nodes().unsuspend(net.admin, connector.id());
        assertEquals(List.of(url(connector, 41555)), resolvers(mapOf(laptop), "github.com"));
    }

    @Test
    void theConnectorsFilterLetsAPeerReachTheInternetThroughItOnlyWhenThePolicyDoes() {
        app("github", List.of("github.com"), List.of("*"), List.of());
        Node laptop = laptop("198.51.100.1:41641");
        Node connector = connector("c", "tag:connector", 41555, "203.0.113.1:41641");
        net.policy("""
                {"tagOwners": {"tag:connector": []},
                 "acls": [{"action": "accept", "src": ["odin@"], "dst": ["autogroup:internet:*"]}]}
                """);
        assertTrue(answersForInternet(mapOf(connector).packetFilter(), laptop),
                "the client answers a peer's DNS query when its filter admits that peer to 0.0.0.0:53");
        net.policy("""
                {"tagOwners": {"tag:connector": []},
                 "acls": [{"action": "accept", "src": ["odin@"], "dst": ["tag:connector:*"]}]}
                """);
        assertFalse(answersForInternet(mapOf(connector).packetFilter(), laptop));
    }

    private static boolean answersForInternet(List<FilterRule> filter, Node peer) {
        return filter.stream().anyMatch(rule -> rule.srcIps().contains(peer.ipv4())
                && rule.dstPorts().stream().anyMatch(dst -> dst.ip().startsWith("0.0.0.0")));
    }

    @Test
    void aMachineBehindAConnectorsPublicAddressSkipsItsPublicAppRoutesAndDnsButKeepsPrivateOnes() {
        app("github", List.of("github.com"), List.of("*"), List.of("10.20.0.0/16", "140.82.0.0/16"));
        Node here = connector("here", "tag:connector", 41001, "81.2.69.7:41641", "140.82.112.3/32",
                "10.30.0.7/32", "10.20.0.0/16", "140.82.0.0/16");
        Node there = connector("there", "tag:other", 41002, "90.1.2.9:41641", "140.82.112.4/32");
        network.presence().connected(here);
        network.presence().connected(there);
        Node laptop = laptop("81.2.69.7:50000");
        MapSessionState session = new MapSessionState(laptop.id(), 142);
        MapResponse map = session.initial(inputs());

        assertEquals(Set.of("10.20.0.0/16"), routesOf(map.peers(), here),
                "only the private static prefix: learned host routes, private or not, and public static ones are skipped");
        assertEquals(Set.of("140.82.112.4/32"), routesOf(map.peers(), there), "the other site's connector is used");
        assertEquals(List.of(url(there, 41002)), resolvers(map, "github.com"));

        Node moved = reports(laptop, "90.1.2.200:50000");
        MapResponse delta = session.update(new ChangeSet(Set.of(moved.id()), Set.of(), false), inputs())
                .orElseThrow();
        assertEquals(Set.of("10.20.0.0/16", "10.30.0.7/32", "140.82.0.0/16", "140.82.112.3/32"),
                routesOf(delta.peersChanged(), here),
                "a new address gives a new map");
        assertEquals(List.of(url(here, 41001), url(there, 41002)), resolvers(delta, "github.com"));
    }

    @Test
    void onlyGloballyReachableEndpointsArePublicAddresses() {
        app("github", List.of("github.com"), List.of("*"), List.of());
        Node connector = connector("c", "tag:connector", 41555, "192.0.2.2:41641");
        network.presence().connected(connector);
        MapResponse laptop = mapOf(laptop("192.0.2.2:50000"));
        assertEquals(List.of(url(connector, 41555)), resolvers(laptop, "github.com"),
                "two machines on one documentation-range (or private) address are not skipped");
    }

    private static Set<String> routesOf(List<io.meshcontrol.core.wire.Node> peers, Node connector) {
        io.meshcontrol.core.wire.Node wire = peers.stream().filter(p -> p.id() == connector.id()).findFirst()
                .orElseThrow(() -> new AssertionError("no peer " + connector.id() + " in " + peers));
        return wire.allowedIps().stream().filter(p -> !wire.addresses().contains(p)).map(IpPrefix::toString)
                .collect(java.util.stream.Collectors.toSet());
    }
}
