package io.meshcontrol.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.api.MeshClient;
import io.meshcontrol.api.PreAuthKeyRequest;
import io.meshcontrol.api.UserRequest;
import java.nio.file.Path;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Subnet routers and exit nodes with real clients: an advertised route waits until {@code svc nodes approve-routes},
 * then peers see it in the router's PrimaryRoutes and AllowedIPs; the policy's auto-approvers approve a tagged
 * router's route and an exit node (both families) without anyone approving; a route two routers share moves to the
 * second when the first stops and stays there when it returns; global exit nodes reach peers' netmaps as
 * {@code suggest-exit-node}, {@code Location.Priority} and the self attributes {@code auto-exit-node} and
 * {@code traffic-steering}. Traffic through the routes is not tried (userspace networking).
 */
class RoutesTest {

    private static final Duration SOON = Duration.ofSeconds(30);
    /** A client reports a new home region after its next relay measurement, which may take a netcheck round. */
    private static final Duration STEERING = Duration.ofSeconds(90);
    private static final int EMBEDDED_REGION = 999;
    private static final JsonMapper JSON = JsonMapper.builder().build();

    @RegisterExtension
    final TailscaleNodes nodes = new TailscaleNodes();

    @TempDir
    Path folder;

    private TestNetwork network;
    private MeshClient admin;

    static Stream<ClientVersion> versions() {
        return ClientVersions.all();
    }

    @AfterEach
    void stop() throws Exception {
        if (network != null) {
            network.close();
        }
    }

    private String start() throws Exception {
        return start(java.util.Map.of());
    }

    private String start(java.util.Map<String, String> settings) throws Exception {
        network = TestNetwork.start(folder, nodes, Duration.ofMinutes(30), settings);
        admin = network.admin();
        admin.createUser(new UserRequest("alice", null, "alice@example.com", "admin"));
        return admin.createPreAuthKey(new PreAuthKeyRequest("alice", null, true, false, false, "", null)).secret();
    }

    private TailscaleNode up(ClientVersion version, String name, String key, String... args) {
        TailscaleNode node = network.node(version, name);
        node.up(network.loginServer(), key, name, args).requireOk();
        return node;
    }

    @ParameterizedTest(name = "tailscale {0}")
    @MethodSource("versions")
    void anAdvertisedRouteReachesPeersOnceApproved(ClientVersion version) throws Exception {
        String key = start();
        TailscaleNode a = up(version, "a", key);
        up(version, "r", key, "--advertise-routes=10.77.0.0/16");
        awaitServer("r advertising", () -> network.view("r").routes().available().equals(List.of("10.77.0.0/16")));
        PeerStatus pending = a.awaitStatus("r online", s -> peer(s, "r").filter(PeerStatus::online).isPresent(), SOON)
                .peer("r").orElseThrow();
        assertTrue(!PeerStatus.texts(pending.json(), "AllowedIPs").contains("10.77.0.0/16"), "not approved yet");
        assertEquals(List.of(), PeerStatus.texts(pending.json(), "PrimaryRoutes"));

        svc("nodes", "approve-routes", "--identifier", "r", "--routes", "10.77.0.0/16");
        PeerStatus approved = a.awaitStatus("r serving 10.77.0.0/16",
                s -> peer(s, "r").map(p -> PeerStatus.texts(p.json(), "PrimaryRoutes").contains("10.77.0.0/16"))
                        .orElse(false), SOON).peer("r").orElseThrow();
        assertTrue(PeerStatus.texts(approved.json(), "AllowedIPs").contains("10.77.0.0/16"),
                approved.json().toString());
        assertEquals(List.of("10.77.0.0/16"), network.view("r").routes().serving());
    }

    @ParameterizedTest(name = "tailscale {0}")
    @MethodSource("versions")
    void autoApproversApproveATaggedRouterAndAnExitNode(ClientVersion version) throws Exception {
        String key = start();
        admin.setPolicy("""
                {
                  "tagOwners": {"tag:router": ["alice@example.com"], "tag:exit": ["alice@example.com"]},
                  // routers may serve inside 10.0.0.0/8; exit nodes need no approval
                  "autoApprovers": {"routes": {"10.0.0.0/8": ["tag:router"]}, "exitNode": ["tag:exit"]},
                }
                """);
        TailscaleNode a = up(version, "a", key);
        up(version, "r", key, "--advertise-tags=tag:router", "--advertise-routes=10.88.0.0/16");
        up(version, "e", key, "--advertise-tags=tag:exit", "--advertise-exit-node");

        NodeStatus seen = a.awaitStatus("r serving 10.88.0.0/16 and e an exit node", s ->
                peer(s, "r").map(p -> PeerStatus.texts(p.json(), "PrimaryRoutes").contains("10.88.0.0/16")).orElse(false)
                && peer(s, "e").map(p -> p.json().path("ExitNodeOption").asBoolean(false)).orElse(false), SOON);
        List<String> exitAllowed = PeerStatus.texts(seen.peer("e").orElseThrow().json(), "AllowedIPs");
        assertTrue(exitAllowed.contains("0.0.0.0/0") && exitAllowed.contains("::/0"), exitAllowed.toString());
        assertEquals(List.of("0.0.0.0/0", "::/0"), network.view("e").routes().approved());
        assertEquals(List.of("10.88.0.0/16"), network.view("r").routes().approved());
    }

    @ParameterizedTest(name = "tailscale {0}")
    @MethodSource("versions")
    void theNextRouterServesASharedRouteWhenThePrimaryStopsAndKeepsItWhenItReturns(ClientVersion version)
            throws Exception {
        // Probes every 2 s: a router that did not answer them would lose the route (a generous timeout, for a loaded
        // machine).
        int port;
        try (java.net.ServerSocket socket = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            port = socket.getLocalPort();
        }
        String key = start(java.util.Map.of("node.routes.ha_probe_interval", "2s",
                "node.routes.ha_probe_timeout", "20s", "listen_addr", "127.0.0.1:" + port,
                "server_url", "http://127.0.0.1:" + port));
        TailscaleNode a = up(version, "a", key);
        TailscaleNode r1 = up(version, "r1", key, "--advertise-routes=10.99.0.0/16");
        up(version, "r2", key, "--advertise-routes=10.99.0.0/16");
        svc("nodes", "approve-routes", "--identifier", "r1", "--routes", "10.99.0.0/16");
        svc("nodes", "approve-routes", "--identifier", "r2", "--routes", "10.99.0.0/16");
        a.awaitStatus("r1, the lowest id, primary", s -> serves(s, "r1", "10.99.0.0/16") && !serves(s, "r2",
                "10.99.0.0/16"), SOON);
        awaitServer("both routers answering probes over their control connection", () -> probeAnswers() >= 4,
                () -> probeLines().toList().toString());
        assertEquals(List.of("10.99.0.0/16"), network.view("r1").routes().serving(), "r1 answers: it stays primary");

        r1.stop();
        a.awaitStatus("r2 primary once r1 is gone", s -> serves(s, "r2", "10.99.0.0/16")
                && !serves(s, "r1", "10.99.0.0/16"), SOON);
        assertEquals(List.of("10.99.0.0/16"), network.view("r2").routes().serving());

        r1.restart();
        a.awaitStatus("r1 back online", s -> peer(s, "r1").filter(PeerStatus::online).isPresent(), SOON);
        awaitServer("r1 online at the server", () -> network.view("r1").online());
        NodeStatus after = a.status();
        assertTrue(serves(after, "r2", "10.99.0.0/16") && !serves(after, "r1", "10.99.0.0/16"),
                "r1 is back but r2 keeps the route: no flap back");
        assertEquals(List.of(), network.view("r1").routes().serving());
    }

    /**
     * Issue 33 item 16: routers that log in through another URL than {@code server_url} (127.0.0.1 against
     * localhost, both this server) still answer their probes, so a shared route keeps a primary.
     */
    @ParameterizedTest(name = "tailscale {0}")
    @MethodSource("versions")
    void routersLoggedInThroughAnotherUrlThanServerUrlAnswerTheirProbes(ClientVersion version) throws Exception {
        int port;
        try (java.net.ServerSocket socket = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            port = socket.getLocalPort();
        }
        String key = start(java.util.Map.of("node.routes.ha_probe_interval", "2s",
                "node.routes.ha_probe_timeout", "20s", "listen_addr", "127.0.0.1:" + port,
                "server_url", "http://localhost:" + port));
        assertEquals("127.0.0.1", network.loginServer().getHost(), "the routers log in through another URL");
        TailscaleNode a = up(version, "a", key);
        up(version, "r1", key, "--advertise-routes=10.99.0.0/16");
        up(version, "r2", key, "--advertise-routes=10.99.0.0/16");
        svc("nodes", "approve-routes", "--identifier", "r1", "--routes", "10.99.0.0/16");
        svc("nodes", "approve-routes", "--identifier", "r2", "--routes", "10.99.0.0/16");
        awaitServer("both routers answering probes", () -> probeAnswers() >= 4,
                () -> probeLines().toList().toString());
        a.awaitStatus("r1, the lowest id, primary", s -> serves(s, "r1", "10.99.0.0/16") && !serves(s, "r2",
                "10.99.0.0/16"), SOON);
        assertEquals(List.of("10.99.0.0/16"), network.view("r1").routes().serving());
    }

    @ParameterizedTest(name = "tailscale {0}")
    @MethodSource("versions")
    void aClientIsSteeredToTheRouterInItsHomeRegionAndAgainWhenItMoves(ClientVersion version) throws Exception {
        // Two relay regions: the vendor's derper (900, from the map file) and the embedded relay (999). On loopback
        // both measure the same, so each node's home region is set with the client's own debug switch. Probes are
        // off: health is the failover test's subject.
        String key = start(java.util.Map.of("derp.server.enabled", "true", "node.routes.ha_probe_interval", "0s"));
        TailscaleNode r1 = up(version, "r1", key, "--advertise-routes=10.77.0.0/16");
        TailscaleNode r2 = up(version, "r2", key, "--advertise-routes=10.77.0.0/16");
        TailscaleNode client = up(version, "c", key);
        home(r1, EMBEDDED_REGION);
        home(r2, Derper.REGION_ID);
        home(client, Derper.REGION_ID);
        svc("nodes", "approve-routes", "--identifier", "r1", "--routes", "10.77.0.0/16");
        svc("nodes", "approve-routes", "--identifier", "r2", "--routes", "10.77.0.0/16");

        // r1 has the lowest id: the tailnet-wide primary. The client's region has r2, so the client is sent there.
        client.awaitStatus("c, homed in region 900, routed through r2",
                s -> serves(s, "r2", "10.77.0.0/16") && !serves(s, "r1", "10.77.0.0/16"), STEERING);
        home(client, EMBEDDED_REGION);
        client.awaitStatus("c, now homed in region 999, routed through r1",
                s -> serves(s, "r1", "10.77.0.0/16") && !serves(s, "r2", "10.77.0.0/16"), STEERING);
    }

    /** Makes {@code region} the node's home relay region (while it is reachable): the client reports it to control. */
    private static void home(TailscaleNode node, int region) {
        node.cli("debug", "force-prefer-derp", Integer.toString(region)).requireOk();
    }

    @ParameterizedTest(name = "tailscale {0}")
    @MethodSource("versions")
    void aGlobalExitNodeWithPriorityIsSuggestedAndCarriesItsPriority(ClientVersion version) throws Exception {
        String key = start();
        TailscaleNode a = up(version, "a", key);
        up(version, "e1", key, "--advertise-exit-node");
        up(version, "e2", key, "--advertise-exit-node");
        up(version, "e3", key, "--advertise-exit-node");
        awaitServer("every exit node advertising", () -> Stream.of("e1", "e2", "e3")
                .allMatch(n -> network.view(n).routes().available().contains("0.0.0.0/0")));
        svc("nodes", "approve-routes", "--identifier", "e3", "--routes", "0.0.0.0/0");
        svc("nodes", "global-exit-node", "--identifier", "e1", "--priority", "50");
        svc("nodes", "global-exit-node", "--identifier", "e2");

        JsonNode netmap = awaitNetmap(a, "e1 and e2 marked, e1 with its priority, e3 not suggested", m ->
                peerIn(m, "e1").path("Hostinfo").path("Location").path("Priority").asInt() == 50
                        && hasCap(peerIn(m, "e2"), "suggest-exit-node") && !peerIn(m, "e3").isMissingNode()
                        && !hasCap(peerIn(m, "e3"), "suggest-exit-node"));
        assertTrue(hasCap(peerIn(netmap, "e1"), "suggest-exit-node"), "rule 1: a marked node is suggested");
        assertTrue(hasCap(peerIn(netmap, "e2"), "suggest-exit-node"));
        assertTrue(peerIn(netmap, "e2").path("Hostinfo").path("Location").path("Priority").isMissingNode(),
                "priority 0 is sent as no priority");
        JsonNode self = netmap.path("SelfNode");
        assertTrue(hasCap(self, "auto-exit-node"), "rule 2: " + self.path("CapMap"));
        assertTrue(hasCap(self, "traffic-steering"), "rule 3: " + self.path("CapMap"));
        if (version.equals(ClientVersions.newest())) {
            // 1.86 and later rank by priority under traffic-steering: the highest online one.
            CliResult suggested = a.cli("exit-node", "suggest");
            assertTrue(suggested.ok() && suggested.stdout().contains("Suggested exit node: e1."), suggested.toString());
        }

        svc("nodes", "global-exit-node", "--identifier", "e1", "--revoke");
        svc("nodes", "global-exit-node", "--identifier", "e2", "--revoke");
        JsonNode cleared = awaitNetmap(a, "no mark left: every approved exit node suggested again",
                m -> hasCap(peerIn(m, "e3"), "suggest-exit-node") && !hasCap(m.path("SelfNode"), "auto-exit-node"));
        assertTrue(peerIn(cleared, "e1").path("Hostinfo").path("Location").isMissingNode(), cleared.toString());
    }

    /** {@code tailscale debug netmap}, polled until {@code condition} holds. */
    private static JsonNode awaitNetmap(TailscaleNode node, String what, java.util.function.Predicate<JsonNode> condition)
            throws Exception {
        long deadline = System.nanoTime() + SOON.toNanos();
        JsonNode last = null;
        while (System.nanoTime() < deadline) {
            CliResult result = node.cli("debug", "netmap");
            if (result.ok()) {
                last = JSON.readTree(result.stdout());
                if (condition.test(last)) {
                    return last;
                }
            }
            Thread.sleep(300);
        }
        throw new AssertionError(what + " not reached within " + SOON.toSeconds() + "s; last netmap: " + last);
    }

    /** The peer whose name starts with {@code name.}, or a missing node. */
    private static JsonNode peerIn(JsonNode netmap, String name) {
        for (JsonNode peer : netmap.path("Peers")) {
            if (peer.path("Name").asText().startsWith(name + ".")) {
                return peer;
            }
        }
        return tools.jackson.databind.node.MissingNode.getInstance();
    }

    private static boolean hasCap(JsonNode node, String capability) {
        return node.path("CapMap").has(capability);
    }

    /** How many probe answers the server took ({@code HEAD /machine/ping-response} answered 200). */
    private double probeAnswers() {
        return probeLines().filter(l -> l.contains("status=\"200\""))
                .mapToDouble(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1))).sum();
    }

    /** The server's request counts of {@code /machine/ping-response}, by status. */
    private Stream<String> probeLines() {
        String metrics;
        try {
            metrics = network.server().scrapeMetrics().body();
        } catch (java.io.IOException | InterruptedException e) {
            throw new AssertionError("cannot scrape the server's metrics", e);
        }
        return metrics.lines().filter(l -> l.startsWith("svc_http_requests_total{")
                && l.contains("route=\"/machine/ping-response\""));
    }

    private static boolean serves(NodeStatus status, String name, String prefix) {
        return peer(status, name).map(p -> PeerStatus.texts(p.json(), "PrimaryRoutes").contains(prefix)).orElse(false);
    }

    private static Optional<PeerStatus> peer(NodeStatus status, String name) {
        return status.peerList().stream().filter(p -> p.dnsName().startsWith(name + ".")).findFirst();
    }

    /** Polls the server's view (the client reports its routes shortly after up returns). */
    private static void awaitServer(String what, java.util.function.BooleanSupplier condition) throws Exception {
        awaitServer(what, condition, () -> "");
    }

    /** As above; {@code state} describes what was seen when the condition is not reached. */
    private static void awaitServer(String what, java.util.function.BooleanSupplier condition,
            java.util.function.Supplier<String> state) throws Exception {
        long deadline = System.nanoTime() + SOON.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError(what + " not reached within " + SOON.toSeconds() + "s " + state.get());
            }
            Thread.sleep(200);
        }
    }

    /** Runs the real svc command line against the test server, through its local credential. */
    private void svc(String... args) throws Exception {
        network.svc(args);
    }
}
