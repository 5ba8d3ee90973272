package io.meshcontrol.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.api.MeshClient;
import io.meshcontrol.api.PreAuthKeyRequest;
import io.meshcontrol.api.UserRequest;
import io.meshcontrol.core.key.NodePrivateKey;
import io.meshcontrol.core.key.NodePublicKey;
import io.meshcontrol.relay.derp.DerpServer;
import io.meshcontrol.server.relay.DerpSocketClient;
import io.meshcontrol.server.testing.TestServer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Scenario 4 of the relay issue: DERP settings changed with {@code svc derp ...} reach connected real clients without
 * restarting them ({@code tailscale debug derp-map} shows the client's current map), and turning verification on
 * drops a DERP client whose key this network does not know while the real node keeps its relay connection.
 * The extra relay points at loopback, so nothing a client probes leaves the machine.
 */
class RelaySettingsTest {

    private static final Duration SOON = Duration.ofSeconds(30);
    private static final JsonMapper JSON = JsonMapper.builder().build();

    @RegisterExtension
    final TailscaleNodes nodes = new TailscaleNodes();

    @TempDir
    Path folder;

    private TestNetwork network;
    private TestServer server;

    static Stream<ClientVersion> versions() {
        return ClientVersions.all();
    }

    @AfterEach
    void stop() throws Exception {
        if (network != null) {
            network.close();
        }
    }

    @ParameterizedTest(name = "tailscale {0}")
    @MethodSource("versions")
    void settingsChangesReachConnectedClientsAndVerificationDropsStrangers(ClientVersion version) throws Exception {
        network = TestNetwork.withEmbeddedRelay(folder, nodes, false);
        server = network.server();
        MeshClient admin = server.adminClient();
        admin.createUser(new UserRequest("alice", "Alice", "alice@example.com", "admin"));
        String key = admin.createPreAuthKey(new PreAuthKeyRequest("alice", null, true, false, false, "t", null)).secret();
        TailscaleNode node = network.joined(version, "a", key);
        node.awaitStatus("running", NodeStatus::isRunning, SOON);
        awaitMap(node, "the embedded region", map -> map.path("Regions").has("999"));

        svc("derp", "relay", "add", "--region", "900", "--code", "home", "--host", "127.0.0.1", "--ipv4", "127.0.0.1");
        awaitMap(node, "region 900 added", map -> map.path("Regions").path("900").path("Nodes").path(0)
                .path("HostName").asString("").equals("127.0.0.1"));

        svc("derp", "set", "--stun-enabled", "off");
        awaitMap(node, "the embedded relay without STUN", map -> map.path("Regions").path("999").path("Nodes").path(0)
                .path("STUNPort").asInt(0) == -1 && map.path("Regions").has("900"));

        svc("derp", "relay", "remove", "--region", "900");
        awaitMap(node, "region 900 removed", map -> !map.path("Regions").has("900")
                && map.path("Regions").has("999"));

        // The node holds a connection to its home relay, ours; a stranger connects while verification is off.
        NodePublicKey nodeKey = server.network.snapshots().current().nodes().values().stream()
                .filter(n -> n.hostname().equals("a")).findFirst().orElseThrow().nodeKey();
        DerpServer relay = server.server.relay().orElseThrow().derp();
        awaitTrue("the node on the embedded relay", () -> relay.clients().stream()
                .anyMatch(s -> nodeKey.equals(s.clientKey())));
        try (DerpSocketClient stranger = DerpSocketClient.connect(server.server.httpAddress(),
                NodePrivateKey.generate())) {
            svc("derp", "set", "--verify-clients", "on");
            assertTrue(stranger.closedByServer(), "an unknown key is dropped when verification goes on");
        }
        assertTrue(relay.clients().stream().anyMatch(s -> nodeKey.equals(s.clientKey())),
                "the node of this network keeps its relay connection");
        assertTrue(node.status().isRunning());
    }

    /**
     * Issue 33 item 6: after {@code --relay off} and {@code --relay on} every client takes the relay up again as its
     * home at once, not only when it next has a packet to send (1.102 clients kept the region as their home while it
     * was gone, and so never reconnected by themselves). The relay is the nodes' only path to each other.
     */
    @ParameterizedTest(name = "tailscale {0}")
    @MethodSource("versions")
    void everyClientIsBackOnTheEmbeddedRelaySoonAfterItWasTurnedOffAndOn(ClientVersion version) throws Exception {
        network = TestNetwork.withEmbeddedRelay(folder, nodes, true);
        server = network.server();
        MeshClient admin = server.adminClient();
        admin.createUser(new UserRequest("alice", "Alice", "alice@example.com", "admin"));
        String key = admin.createPreAuthKey(new PreAuthKeyRequest("alice", null, true, false, false, "t", null)).secret();
        List<TailscaleNode> all = new ArrayList<>();
        for (String name : List.of("a", "b", "c")) {
            // --verbose=1 logs each relay measurement ("netcheck: report: ...").
            all.add(network.join(network.builder(version, name).daemonArgs("--verbose=1").start(), name, key));
        }
        Set<NodePublicKey> keys = new HashSet<>();
        server.network.snapshots().current().nodes().values().forEach(n -> keys.add(n.nodeKey()));
        DerpServer relay = server.server.relay().orElseThrow().derp();
        awaitTrue("every node on the embedded relay", () -> onRelay(relay).containsAll(keys));

        JsonNode relayOn = JSON.readTree(all.getFirst().cli("debug", "derp-map").requireOk().stdout());
        svc("derp", "set", "--relay", "off");
        for (TailscaleNode node : all) {
            awaitMap(node, "the relay turned off", map -> !map.equals(relayOn));
        }
        awaitTrue("nobody on the relay", () -> onRelay(relay).isEmpty());
        // Each client measures the relays again while the region is gone, as its periodic measurement would: that
        // measurement is what chose the vanished region as home again.
        for (TailscaleNode node : all) {
            long before = measurements(node);
            node.cli("debug", "restun").requireOk();
            awaitTrue(node.name() + " measuring the relays without the region", () -> measurements(node) > before);
        }

        svc("derp", "set", "--relay", "on");
        awaitTrue("every node back on the embedded relay", () -> onRelay(relay).containsAll(keys));
        CliResult ping = all.get(1).ping("c");
        assertTrue(ping.ok() && ping.stdout().contains("pong from c"), ping.describe());
    }

    /** How many relay measurements the client logged so far. */
    private static long measurements(TailscaleNode node) {
        try (Stream<String> lines = java.nio.file.Files.lines(node.logFile())) {
            return lines.filter(line -> line.contains("netcheck: report: ")).count();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static Set<NodePublicKey> onRelay(DerpServer relay) {
        Set<NodePublicKey> connected = new HashSet<>();
        relay.clients().forEach(client -> connected.add(client.clientKey()));
        return connected;
    }

    /** Polls the client's own view of the DERP map until it satisfies {@code condition}. */
    private static void awaitMap(TailscaleNode node, String what, Predicate<JsonNode> condition) throws Exception {
        long deadline = System.nanoTime() + SOON.toNanos();
        String last = "";
        while (System.nanoTime() < deadline) {
            CliResult result = node.cli("debug", "derp-map");
            last = result.describe();
            if (result.ok() && condition.test(JSON.readTree(result.stdout()))) {
                return;
            }
            Thread.sleep(250);
        }
        throw new AssertionError("the client's DERP map never showed " + what + " within " + SOON + ": " + last);
    }

    private static void awaitTrue(String what, java.util.function.BooleanSupplier condition) throws Exception {
        long deadline = System.nanoTime() + SOON.toNanos();
        while (System.nanoTime() < deadline) {
            if (condition.getAsBoolean()) {
                return;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("never saw " + what + " within " + SOON);
    }

    /** Runs the real svc command line against the test server, through its local credential. */
    private void svc(String... args) throws Exception {
        network.svc(args);
    }
}
