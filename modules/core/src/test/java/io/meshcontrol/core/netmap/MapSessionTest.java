package io.meshcontrol.core.netmap;

import io.meshcontrol.core.netmap.frames.MapFrameReader;
import io.meshcontrol.core.netmap.frames.MapFrames;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.core.auth.Caller;
import io.meshcontrol.core.key.MachinePrivateKey;
import io.meshcontrol.core.key.NodePrivateKey;
import io.meshcontrol.core.model.Node;
import io.meshcontrol.core.model.Role;
import io.meshcontrol.core.state.Network;
import io.meshcontrol.core.state.MapOptions;
import io.meshcontrol.core.state.NetworkOptions;
import io.meshcontrol.core.state.PreAuthKeys;
import io.meshcontrol.core.state.Registrations;
import io.meshcontrol.core.state.RouteElection;
import io.meshcontrol.core.state.Users;
import io.meshcontrol.core.testing.MapStreamCapture;
import io.meshcontrol.core.wire.MapResponse;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One map stream: full map first (with Node), keep-alives when idle, deltas on changes, end when closed or replaced;
 * each message reported to the metrics.
 */
class MapSessionTest {

    @TempDir
    Path folder;
    Network network;
    String key;
    final Counting metrics = new Counting();

    @BeforeEach
    void setUp() {
        network = Network.open(folder.resolve("db.sqlite"), true, Clock.systemUTC(),
                NetworkOptions.defaults().withMapOptions(new MapOptions("mesh.test", List.of(), null, false)));
        network.users().create(Caller.localAdmin(), new Users.NewUser("alice", "", "", Role.MEMBER));
        key = network.preAuthKeys().create(Caller.localAdmin(),
                new PreAuthKeys.NewKey("alice", List.of(), true, false, false, "", null)).secret();
    }

    private MapSessions sessions(Duration keepAlive) {
        return new MapSessions(network.snapshots(), MapInputs.Source.from(network,
                new AccessControl(network.policies()), Clock.systemUTC()), keepAlive, metrics);
    }

    @Test
    void streamSendsFullMapThenKeepAlivesAndDeltas() throws Exception {
        Node self = join("self", "{}");
        Node peer = join("peer", "{}");
        try (MapSessions sessions = sessions(Duration.ofMillis(100))) {
            MapStreamCapture out = new MapStreamCapture();
            MapSession session = sessions.open(self.id(), 142, MapFrames.zstd(1), out.sink());
            Thread stream = start(session);
            out.await(messages -> messages.stream().filter(MapResponse::keepAlive).count() >= 2);
            network.nodes().rename(Caller.localAdmin(), peer.id(), "renamed");
            out.await(messages -> messages.stream().anyMatch(m -> !m.peersChanged().isEmpty()));
            session.close();
            stream.join(10_000);
            assertFalse(stream.isAlive(), "closing ends the stream");
            assertEquals(0, sessions.size(), "an ended stream is no longer open");

            List<MapResponse> messages = out.messages();
            assertNotNull(messages.getFirst().node(), "the first message carries Node");
            assertEquals("self.mesh.test.", messages.getFirst().node().name());
            long keepAlives = messages.stream().filter(MapResponse::keepAlive).count();
            assertTrue(keepAlives >= 2, "keep-alives while idle");
            assertTrue(messages.stream().anyMatch(m -> m.peersChanged().stream()
                    .anyMatch(n -> n.name().equals("renamed.mesh.test."))), "the rename arrives as a delta");
            assertEquals(List.of(1, (int) keepAlives, messages.size() - 1 - (int) keepAlives), metrics.counts(),
                    "every message is counted once, by kind");
        }
    }

    @Test
    void aStreamWaitingForItsFullMapKeepsNoChangesAndItsFullMapHasThemAll() throws Exception {
        Node self = join("self", "{}");
        Node waiting = join("waiting", "{}");
        Node peer = join("peer", "{}");
        try (MapSessions sessions = sessions(Duration.ofSeconds(50))) {
            MapStreamCapture out = new MapStreamCapture();
            MapSession running = sessions.open(self.id(), 142, MapFrames.zstd(1), out.sink());
            Thread stream = start(running);
            out.await(messages -> !messages.isEmpty());
            MapStreamCapture waitingOut = new MapStreamCapture();
            MapSession notStarted = sessions.open(waiting.id(), 142, MapFrames.zstd(1), waitingOut.sink());

            network.nodes().rename(Caller.localAdmin(), peer.id(), "renamed");
            out.await(messages -> messages.stream().anyMatch(m -> !m.peersChanged().isEmpty()));
            assertEquals(0, notStarted.queued(), "the change went to every stream; the waiting one dropped it");

            Thread waitingStream = start(notStarted);
            MapResponse first = waitingOut.await(messages -> !messages.isEmpty()).getFirst();
            assertTrue(first.peers().stream().anyMatch(n -> n.name().equals("renamed.mesh.test.")),
                    "its full map, built now, has the change");
            network.nodes().rename(Caller.localAdmin(), peer.id(), "again");
            waitingOut.await(messages -> messages.stream().anyMatch(m -> m.peersChanged().stream()
                    .anyMatch(n -> n.name().equals("again.mesh.test."))));
            running.close();
            notStarted.close();
            stream.join(10_000);
            waitingStream.join(10_000);
        }
    }

    @Test
    void whenThePrimaryRouterGoesOfflinePeersGetTheNextRouterAsADelta() throws Exception {
        Node self = join("self", "{}");
        Node r1 = router("r1");
        Node r2 = router("r2");
        network.presence().connected(r1);
        network.presence().connected(r2);
        try (MapSessions sessions = sessions(Duration.ofSeconds(50))) {
            MapStreamCapture out = new MapStreamCapture();
            MapSession session = sessions.open(self.id(), 142, MapFrames.zstd(1), out.sink());
            Thread stream = start(session);
            out.await(messages -> !messages.isEmpty());
            List<String> lan = List.of("10.1.0.0/16");
            assertEquals(lan, primaryRoutes(out.messages().getFirst().peers(), r1.id()), "r1, the lowest id, serves");
            assertEquals(List.of(), primaryRoutes(out.messages().getFirst().peers(), r2.id()));

            network.presence().disconnected(r1);
            out.await(messages -> messages.stream().anyMatch(m -> lan.equals(primaryRoutes(m.peersChanged(),
                    r2.id()))));
            assertTrue(out.messages().stream()
                    .anyMatch(m -> List.of().equals(primaryRoutes(m.peersChanged(), r1.id()))), "r1 no longer serves it");
            session.close();
            stream.join(10_000);
        }
    }

    @Test
    void aRouterThatDoesNotAnswerItsProbeLosesThePrimaryAndDoesNotTakeItBackWhenItAnswers() throws Exception {
        Node r1 = router("r1");
        Node r2 = router("r2");
        network.presence().connected(r1);
        network.presence().connected(r2);
        RouteElection election = network.routeElection();
        java.util.concurrent.ScheduledExecutorService timer = java.util.concurrent.Executors
                .newSingleThreadScheduledExecutor();
        try (MapSessions sessions = sessions(Duration.ofSeconds(50))) {
            MapStreamCapture r1Out = new MapStreamCapture();
            MapStreamCapture r2Out = new MapStreamCapture();
            Thread r1Stream = start(sessions.open(r1.id(), 142, MapFrames.zstd(1), r1Out.sink()));
            Thread r2Stream = start(sessions.open(r2.id(), 142, MapFrames.zstd(1), r2Out.sink()));
            assertEquals(java.util.Set.of(r1.id(), r2.id()), election.sharedRouters());
            RouterProbes probes = new RouterProbes(sessions, election, "https://mesh.example.com/", Duration.ofMillis(1),
                    timer); // nobody answers in a millisecond

            probes.probeOnce();
            MapResponse probe = r1Out.await(messages -> messages.stream().anyMatch(m -> m.pingRequest() != null))
                    .stream().filter(m -> m.pingRequest() != null).findFirst().orElseThrow();
            assertTrue(probe.keepAlive(), "the probe rides on a keep-alive");
            assertTrue(probe.pingRequest().urlIsNoise(), "answered over the control connection");
            String url = probe.pingRequest().url();
            assertTrue(url.startsWith("https://mesh.example.com/machine/ping-response?id="), url);
            String token = url.substring(url.indexOf("?id=") + 4);
            assertFalse(probes.answered(token, r2.id()), "another node cannot answer r1's probe");
            // Nobody answers within the timeout: both routers are unhealthy, and the prefix has no primary.
            awaitTrue(() -> election.current().primaries().isEmpty());

            RouterProbes patient = new RouterProbes(sessions, election, "https://mesh.example.com/",
                    Duration.ofMinutes(10), timer);
            patient.probeOnce();
            assertTrue(patient.answered(token(r2Out, 2), r2.id()));
            awaitTrue(() -> election.current().primaryRoutes(r2.id()).equals(
                    List.of(io.meshcontrol.core.net.IpPrefix.parse("10.1.0.0/16"))));
            assertTrue(patient.answered(token(r1Out, 2), r1.id()), "r1 answers again");
            assertFalse(patient.answered(token(r1Out, 2), r1.id()), "a probe is answered once");
            assertEquals(List.of(io.meshcontrol.core.net.IpPrefix.parse("10.1.0.0/16")),
                    election.current().primaryRoutes(r2.id()), "r1 is healthy again but does not take the prefix back");
            assertEquals(List.of(), election.current().primaryRoutes(r1.id()));
            r1Stream.interrupt();
            r2Stream.interrupt();
        } finally {
            timer.shutdownNow();
        }
    }

    /** The token of the {@code n}th probe the stream was sent (from 1). */
    private static String token(MapStreamCapture out, int n) throws Exception {
        List<MapResponse> probes = out.await(messages -> messages.stream().filter(m -> m.pingRequest() != null)
                .count() >= n).stream().filter(m -> m.pingRequest() != null).toList();
        String url = probes.get(n - 1).pingRequest().url();
        return url.substring(url.indexOf("?id=") + 4);
    }

    private static void awaitTrue(java.util.function.BooleanSupplier condition) throws InterruptedException {
        for (int i = 0; i < 1000 && !condition.getAsBoolean(); i++) {
            Thread.sleep(10);
        }
        assertTrue(condition.getAsBoolean());
    }

    @Test
    void aChangeOfPresenceAloneGoesOnlyToTheStreamsOfTheNodesThatSeeTheNodeAndToItsOwn() throws Exception {
        network.users().create(Caller.localAdmin(), new Users.NewUser("bob", "", "", Role.MEMBER));
        String bobs = network.preAuthKeys().create(Caller.localAdmin(),
                new PreAuthKeys.NewKey("bob", List.of(), true, false, false, "", null)).secret();
        Node alice1 = join("alice1", "{}");
        Node alice2 = join("alice2", "{}");
        Node bob1 = joinWith(bobs, "bob1");
        Node bob2 = joinWith(bobs, "bob2");
        network.policies().set(Caller.localAdmin(), "{\"acls\": [{\"action\": \"accept\","
                + " \"src\": [\"autogroup:member\"], \"dst\": [\"autogroup:self:*\"]}]}", null);
        try (MapSessions sessions = sessions(Duration.ofSeconds(50))) {
            Map<Node, MapStreamCapture> outs = new java.util.LinkedHashMap<>();
            List<Thread> streams = new java.util.ArrayList<>();
            for (Node node : List.of(alice2, bob1, bob2)) {
                MapStreamCapture out = new MapStreamCapture();
                outs.put(node, out);
                streams.add(start(sessions.open(node.id(), 142, MapFrames.zstd(1), out.sink())));
                out.await(messages -> !messages.isEmpty());
            }
            network.nodes().rename(Caller.localAdmin(), bob2.id(), "bob-two"); // a row change: to every stream
            outs.get(bob1).await(messages -> messages.stream().anyMatch(m -> !m.peersChanged().isEmpty()));
            awaitTrue(() -> sessions.batchesOffered() >= 3);
            long before = sessions.batchesOffered();

            network.presence().connected(alice1); // presence alone: alice2 sees alice1, bob's nodes do not
            outs.get(alice2).await(messages -> messages.stream().anyMatch(m -> m.peersChangedPatch().stream()
                    .anyMatch(p -> p.nodeId() == alice1.id() && Boolean.TRUE.equals(p.online()))));
            Thread.sleep(200); // a batch offered to more streams would have been offered by now
            assertEquals(before + 1, sessions.batchesOffered(), "offered to alice2's stream alone");

            network.presence().connected(bob1); // to bob1's own stream and bob2's
            awaitTrue(() -> sessions.batchesOffered() >= before + 3);
            Thread.sleep(200);
            assertEquals(before + 3, sessions.batchesOffered());
            sessions.close();
            for (Thread stream : streams) {
                stream.join(10_000);
            }
        }
    }

    @Test
    void aNewerStreamOfTheSameNodeEndsTheOlder() throws Exception {
        Node self = join("self", "{}");
        try (MapSessions sessions = sessions(Duration.ofSeconds(50))) {
            MapStreamCapture first = new MapStreamCapture();
            Thread older = start(sessions.open(self.id(), 142, MapFrames.zstd(1), first.sink()));
            first.await(messages -> !messages.isEmpty());
            MapStreamCapture second = new MapStreamCapture();
            MapSession newer = sessions.open(self.id(), 142, MapFrames.zstd(1), second.sink());
            older.join(10_000);
            assertFalse(older.isAlive(), "the older stream ended");
            Thread stream = start(newer);
            second.await(messages -> !messages.isEmpty());
            assertEquals(1, sessions.size(), "one stream per node");
            newer.close();
            stream.join(10_000);
        }
    }

    @Test
    void aSingleMapIsTheFullMapAlone() throws Exception {
        Node self = join("self", "{}");
        Node peer = join("peer", "{}");
        try (MapSessions sessions = sessions(Duration.ofSeconds(50))) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            sessions.writeSingleMap(self.id(), 142, MapFrames.plain(), out, System.nanoTime());
            MapFrameReader reader = new MapFrameReader(new ByteArrayInputStream(out.toByteArray()), false);
            MapResponse map = reader.next();
            assertEquals("self.mesh.test.", map.node().name());
            assertEquals(List.of(peer.id()), map.peers().stream().map(io.meshcontrol.core.wire.Node::id).toList());
            assertNull(reader.next(), "nothing after it");
            assertEquals(0, sessions.size(), "no stream is opened");
            assertEquals(List.of(1, 0, 0), metrics.counts());
        }
    }

    private static Thread start(MapSession session) {
        return Thread.ofVirtual().start(() -> {
            try {
                session.run(System.nanoTime());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
    }

    private Node router(String name) {
        Node node = join(name, "{\"Hostname\":\"" + name + "\",\"RoutableIPs\":[\"10.1.0.0/16\"]}");
        return network.routeApprovals().setApproved(Caller.localAdmin(), node.id(), List.of("10.1.0.0/16"));
    }

    /** The PrimaryRoutes of node {@code id} among {@code nodes}, or null when it is not there. */
    private static List<String> primaryRoutes(List<io.meshcontrol.core.wire.Node> nodes, long id) {
        return nodes.stream().filter(n -> n.id() == id).findFirst()
                .map(n -> n.primaryRoutes().stream().map(Object::toString).toList()).orElse(null);
    }

    private Node join(String name, String hostinfo) {
        return joinWith(key, name, hostinfo);
    }

    private Node joinWith(String authKey, String name) {
        return joinWith(authKey, name, "{}");
    }

    private Node joinWith(String authKey, String name, String hostinfo) {
        return network.registrations().withAuthKey(new Registrations.Request(MachinePrivateKey.generate().publicKey(),
                NodePrivateKey.generate().publicKey(), name, hostinfo), authKey).node();
    }

    /** Counts what the streams report: full maps, keep-alives, deltas. */
    private static final class Counting implements MapStreamMetrics {
        final AtomicInteger fullMaps = new AtomicInteger();
        final AtomicInteger keepAlives = new AtomicInteger();
        final AtomicInteger deltas = new AtomicInteger();

        @Override
        public void fullMapWritten(long requestNanos) {
            fullMaps.incrementAndGet();
        }

        @Override
        public void deltaWritten() {
            deltas.incrementAndGet();
        }

        @Override
        public void keepAliveWritten() {
            keepAlives.incrementAndGet();
        }

        List<Integer> counts() {
            return List.of(fullMaps.get(), keepAlives.get(), deltas.get());
        }
    }
}
