package io.meshcontrol.server.control;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.api.PreAuthKeyRequest;
import io.meshcontrol.api.UserRequest;
import io.meshcontrol.core.model.Node;
import io.meshcontrol.core.netmap.ChangeSet;
import io.meshcontrol.core.netmap.MapContext;
import io.meshcontrol.core.testing.Machine;
import io.meshcontrol.core.wire.DERPMap;
import io.meshcontrol.core.wire.DNSConfig;
import io.meshcontrol.core.wire.MapFrames;
import io.meshcontrol.core.wire.MapResponse;
import io.meshcontrol.server.testing.TestServer;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** One map stream: full map first (with Node), keep-alives when idle, deltas on changes, end when closed. */
class MapSessionTest {

    @TempDir
    Path folder;

    @Test
    void streamSendsFullMapThenKeepAlivesAndDeltas() throws Exception {
        try (TestServer server = TestServer.start(folder)) {
            server.adminClient().createUser(new UserRequest("alice", null, null, null));
            String key = server.adminClient().createPreAuthKey(new PreAuthKeyRequest("alice", null, true, false, false,
                    "", null)).secret();
            Node self = join(server, key, "self");
            Node peer = join(server, key, "peer");
            StreamCapture out = new StreamCapture();
            MapContext context = new MapContext("TtestCNTRL", "mesh.test", DNSConfig.builder().build(),
                    new DERPMap(null, Map.of(), false));
            MapSession session = new MapSession(self.id(), 142, MapFrames.zstd(1), out.sink(), server.network,
                    () -> context, new io.meshcontrol.core.netmap.AccessControl(server.network.policies()),
                    new io.meshcontrol.core.netmap.PeerForms(), FullMapGate.perCore(), Duration.ofMillis(100),
                    io.meshcontrol.server.metrics.MapMetrics.unregistered(), Clock.systemUTC());
            Thread stream = Thread.ofVirtual().start(() -> {
                try {
                    session.run(System.nanoTime());
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            out.await(messages -> messages.stream().filter(MapResponse::keepAlive).count() >= 2);
            server.network.nodes().rename(io.meshcontrol.core.auth.Caller.localAdmin(), peer.id(), "renamed");
            session.offer(new ChangeSet(Set.of(peer.id()), Set.of(), false));
            out.await(messages -> messages.stream().anyMatch(m -> !m.peersChanged().isEmpty()));
            session.close();
            stream.join(10_000);
            assertTrue(!stream.isAlive(), "closing ends the stream");

            List<MapResponse> messages = out.messages();
            assertNotNull(messages.getFirst().node(), "the first message carries Node");
            assertEquals("self.mesh.test.", messages.getFirst().node().name());
            assertTrue(messages.stream().filter(MapResponse::keepAlive).count() >= 2, "keep-alives while idle");
            assertTrue(messages.stream().anyMatch(m -> m.peersChanged().stream()
                    .anyMatch(n -> n.name().equals("renamed.mesh.test."))), "the rename arrives as a delta");
        }
    }

    @Test
    void whenThePrimaryRouterGoesOfflinePeersGetTheNextRouterAsADelta() throws Exception {
        try (TestServer server = TestServer.start(folder)) {
            server.adminClient().createUser(new UserRequest("alice", null, null, null));
            String key = server.adminClient().createPreAuthKey(new PreAuthKeyRequest("alice", null, true, false, false,
                    "", null)).secret();
            Node self = join(server, key, "self");
            Node r1 = router(server, key, "r1");
            Node r2 = router(server, key, "r2");
            server.network.presence().connected(r1);
            server.network.presence().connected(r2);
            StreamCapture out = new StreamCapture();
            MapSession session = new MapSession(self.id(), 142, MapFrames.zstd(1), out.sink(), server.network,
                    server.server::mapContext, new io.meshcontrol.core.netmap.AccessControl(server.network.policies()),
                    server.server.mapSessions().peerForms(), server.server.mapSessions().fullMaps(),
                        Duration.ofSeconds(50),
                    io.meshcontrol.server.metrics.MapMetrics.unregistered(), Clock.systemUTC());
            server.server.mapSessions().open(session);
            Thread stream = Thread.ofVirtual().start(() -> {
                try {
                    session.run(System.nanoTime());
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            out.await(messages -> !messages.isEmpty());
            List<String> lan = List.of("10.1.0.0/16");
            assertEquals(lan, primaryRoutes(out.messages().getFirst().peers(), r1.id()), "r1, the lowest id, serves");
            assertEquals(List.of(), primaryRoutes(out.messages().getFirst().peers(), r2.id()));

            server.network.presence().disconnected(r1);
            out.await(messages -> messages.stream().anyMatch(m -> lan.equals(primaryRoutes(m.peersChanged(),
                    r2.id()))));
            assertTrue(out.messages().stream().anyMatch(m -> List.of().equals(primaryRoutes(m.peersChanged(), r1.id()))),
                    "r1 no longer serves it");
            session.close();
            stream.join(10_000);
        }
    }

    private static Node router(TestServer server, String key, String name) {
        Node node = Machine.named(name).advertising("10.1.0.0/16").join(server.network, key);
        return server.network.routeApprovals().setApproved(io.meshcontrol.core.auth.Caller.localAdmin(), node.id(),
                List.of("10.1.0.0/16"));
    }

    /** The PrimaryRoutes of node {@code id} among {@code nodes}, or null when it is not there. */
    private static List<String> primaryRoutes(List<io.meshcontrol.core.wire.Node> nodes, long id) {
        return nodes.stream().filter(n -> n.id() == id).findFirst()
                .map(n -> n.primaryRoutes().stream().map(Object::toString).toList()).orElse(null);
    }

    private static Node join(TestServer server, String key, String name) {
        return Machine.named(name).join(server.network, key);
    }
}
