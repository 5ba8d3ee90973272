package io.meshcontrol.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.api.MeshClient;
import io.meshcontrol.api.PreAuthKeyRequest;
import io.meshcontrol.api.UserRequest;
import io.meshcontrol.core.event.MeshEvent;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Suspension with unmodified tailscaled: a suspended node disappears from its peer's {@code tailscale status} and
 * sees no peer itself; unsuspended, both come back, without either client doing anything.
 */
class NodeSuspensionTest {

    private static final Duration SOON = Duration.ofSeconds(30);

    @RegisterExtension
    final TailscaleNodes nodes = new TailscaleNodes();

    @TempDir
    Path folder;

    private TestNetwork network;

    static Stream<ClientVersion> versions() {
        return ClientVersions.all();
    }

    @AfterEach
    void stop() throws Exception {
        if (network != null) {
            network.close();
        }
    }

    private static boolean sees(NodeStatus status, String name) {
        return status.peerList().stream().anyMatch(peer -> peer.dnsName().startsWith(name + "."));
    }

    @ParameterizedTest(name = "tailscale {0}")
    @MethodSource("versions")
    void aSuspendedPeerLeavesTailscaleStatusAndComesBackOnUnsuspend(ClientVersion version) throws Exception {
        network = TestNetwork.withEmbeddedRelay(folder, nodes, false);
        MeshClient admin = network.admin();
        admin.createUser(new UserRequest("alice", "Alice", "alice@example.com", "admin"));
        String key = admin.createPreAuthKey(new PreAuthKeyRequest("alice", null, true, false, false, "test", null))
                .secret();
        TailscaleNode a = network.joined(version, "a", key);
        TailscaleNode b = network.joined(version, "b", key);
        a.awaitStatus("b listed", s -> sees(s, "b"), SOON);
        b.awaitStatus("a listed", s -> sees(s, "a"), SOON);
        List<String> events = new CopyOnWriteArrayList<>();
        network.server().network.events().subscribe(event -> {
            if (event instanceof MeshEvent.NodeSuspended || event instanceof MeshEvent.NodeUnsuspended) {
                events.add(event.type());
            }
        });

        network.svc("nodes", "suspend", "-i", "b");
        assertTrue(network.view("b").suspended());
        a.awaitStatus("b gone", s -> !sees(s, "b"), SOON);
        b.awaitStatus("no peers", s -> s.peerList().isEmpty(), SOON);
        assertTrue(b.status().isRunning(), "a suspended node stays logged in");

        network.svc("nodes", "unsuspend", "-i", "b");
        a.awaitStatus("b back", s -> sees(s, "b"), SOON);
        b.awaitStatus("a back", s -> sees(s, "a"), SOON);
        assertEquals(List.of("nodeSuspended", "nodeUnsuspended"), events);
    }
}
