package io.meshcontrol.core.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.core.auth.Caller;
import io.meshcontrol.core.key.NodePrivateKey;
import io.meshcontrol.core.model.Node;
import io.meshcontrol.core.model.Role;
import io.meshcontrol.core.testing.AuthKey;
import io.meshcontrol.core.testing.Machine;
import io.meshcontrol.core.testing.TestNetwork;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The snapshot follows every committed node write, in commit order, without copying or re-reading. */
class SnapshotsTest {

    @TempDir
    Path folder;
    Network network;
    final Caller admin = Caller.localAdmin();
    String key;

    @BeforeEach
    void setUp() {
        network = new TestNetwork(folder).network;
        network.users().create(admin, new Users.NewUser("odin", "Odin", "odin@example.com", Role.MEMBER));
        key = AuthKey.forUser("odin").reusable().create(network);
    }

    private Node join(String hostname) {
        return Machine.named(hostname).join(network, key);
    }

    @Test
    void writesReachTheSnapshotBeforeTheirEventsAndUnchangedNodesAreShared() {
        Node a = join("a");
        List<Boolean> seenByEvent = new CopyOnWriteArrayList<>();
        network.events().subscribe(event -> seenByEvent.add(network.snapshots().current().node(a.id())
                .map(n -> n.givenName().equals("renamed")).orElse(false)));
        Node b = join("b");
        NetworkSnapshot before = network.snapshots().current();
        network.nodes().rename(admin, a.id(), "renamed");
        NetworkSnapshot after = network.snapshots().current();

        assertEquals("renamed", after.node(a.id()).orElseThrow().givenName());
        assertTrue(seenByEvent.getLast(), "the rename's event sees the renamed node");
        assertSame(before.entry(b.id()).orElseThrow(), after.entry(b.id()).orElseThrow(), "b is not copied");
        assertTrue(after.entry(a.id()).orElseThrow().version() > before.version());
        assertEquals("a", before.node(a.id()).orElseThrow().givenName(), "the older snapshot is unchanged");
    }

    @Test
    void rowsVersionIgnoresPresenceAndLastSeenAndEntriesComeInIdOrder() {
        Node a = join("a");
        Node b = join("b");
        Node c = join("c");
        NetworkSnapshot joined = network.snapshots().current();
        assertEquals(List.of(a.id(), b.id(), c.id()), joined.entriesInIdOrder().stream().map(e -> e.node().id())
                .toList());
        assertSame(joined.entriesInIdOrder(), joined.entriesInIdOrder(), "made once per snapshot");

        network.presence().connected(b);
        network.presence().disconnected(b); // writes b's last-seen time
        NetworkSnapshot presence = network.snapshots().current();
        assertTrue(presence.version() > joined.version());
        assertEquals(joined.rowsVersion(), presence.rowsVersion(), "only presence and last seen changed");

        network.nodes().rename(admin, c.id(), "sea");
        assertEquals(network.snapshots().current().version(), network.snapshots().current().rowsVersion());
    }

    @Test
    void idOrderCarriedAcrossChangesHoldsTheCurrentEntriesAndFollowsJoinsAndDeletions() {
        Node a = join("a");
        Node b = join("b");
        network.snapshots().current().entriesInIdOrder(); // sorted here, then carried over
        network.presence().connected(b);
        network.nodes().rename(admin, a.id(), "sea");
        NetworkSnapshot changed = network.snapshots().current();
        assertEquals(List.of("sea", "b"), changed.entriesInIdOrder().stream().map(e -> e.node().givenName()).toList());
        assertTrue(changed.entriesInIdOrder().get(1).online(), "b's entry of this snapshot, not of the sorted one");

        Node c = join("c");
        network.nodes().delete(admin, a.id());
        assertEquals(List.of(b.id(), c.id()), network.snapshots().current().entriesInIdOrder().stream()
                .map(e -> e.node().id()).toList());
    }

    @Test
    void keyIndexFollowsRotationAndDeletion() {
        Node a = join("a");
        var rotatedKey = NodePrivateKey.generate().publicKey();
        Machine.named("a").machineKey(a.machineKey()).nodeKey(rotatedKey).join(network, key);
        NetworkSnapshot snapshot = network.snapshots().current();
        assertTrue(snapshot.nodeByKey(a.nodeKey()).isEmpty());
        assertEquals(a.id(), snapshot.nodeByKey(rotatedKey).orElseThrow().id());
        network.nodes().delete(admin, a.id());
        assertTrue(network.snapshots().current().nodeByKey(rotatedKey).isEmpty());
        assertTrue(network.snapshots().current().node(a.id()).isEmpty());
    }

    @Test
    void onlineStateIsPartOfTheSnapshotAndLastSeenArrivesWhenTheLastStreamEnds() {
        Node a = join("a");
        network.presence().connected(a);
        network.presence().connected(a);
        assertTrue(network.snapshots().current().isOnline(a.id()));
        network.presence().disconnected(a);
        assertTrue(network.snapshots().current().isOnline(a.id()), "one stream is still open");
        network.presence().disconnected(a);
        NetworkSnapshot after = network.snapshots().current();
        assertFalse(after.isOnline(a.id()));
        assertTrue(after.node(a.id()).orElseThrow().lastSeen() != null, "last seen is stored and in the snapshot");
    }

    @Test
    void listenersGetEveryChangeInVersionOrder() {
        List<StateChange> changes = new CopyOnWriteArrayList<>();
        network.snapshots().subscribe(changes::add);
        Node a = join("a");
        network.presence().connected(a);
        network.nodes().rename(admin, a.id(), "renamed");
        network.users().create(admin, new Users.NewUser("thor", "Thor", "thor@example.com", Role.MEMBER));
        assertEquals(List.of(StateChange.NodeChanged.class, StateChange.NodeChanged.class,
                StateChange.NodeChanged.class, StateChange.Recorded.class, StateChange.UserChanged.class,
                StateChange.Recorded.class),
                changes.stream().map(Object::getClass).toList());
        // A change's audit entry carries the snapshot its change made: the version steps with the rows only.
        List<StateChange> rows = changes.stream().filter(c -> !(c instanceof StateChange.Recorded)).toList();
        for (int i = 1; i < rows.size(); i++) {
            assertEquals(rows.get(i - 1).snapshot().version() + 1, rows.get(i).snapshot().version());
        }
        assertEquals(changes.get(2).snapshot(), changes.get(3).snapshot());
    }

    @Test
    void concurrentWritersLeaveTheSnapshotEqualToTheDatabase() throws Exception {
        List<Node> nodes = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            nodes.add(join("n" + i));
        }
        try (ExecutorService pool = Executors.newFixedThreadPool(8)) {
            List<Future<?>> done = new ArrayList<>();
            for (int round = 0; round < 25; round++) {
                for (Node node : nodes) {
                    int r = round;
                    done.add(pool.submit(() -> network.nodes().updateFromClient(node.id(), null,
                            List.of("192.0.2." + (r % 200) + ":41641"), null, null)));
                    done.add(pool.submit(() -> network.nodes().rename(admin, node.id(), node.givenName() + "-" + r)));
                }
            }
            for (Future<?> future : done) {
                future.get();
            }
        }
        for (Node stored : network.nodes().list(admin)) {
            assertEquals(stored, network.snapshots().current().node(stored.id()).orElseThrow());
        }
    }
}
