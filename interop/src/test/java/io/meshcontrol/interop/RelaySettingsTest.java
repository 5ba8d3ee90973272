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
