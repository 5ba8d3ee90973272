package io.meshcontrol.core.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.core.auth.Caller;
import io.meshcontrol.core.event.MeshEvent;
import io.meshcontrol.core.model.Node;
import io.meshcontrol.core.model.Role;
import io.meshcontrol.core.testing.AuthKey;
import io.meshcontrol.core.testing.Machine;
import io.meshcontrol.core.testing.TestNetwork;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Online while a map stream is open; last seen stored when the last one ends, in groups when many end at once. */
class PresenceTest {

    @TempDir
    Path folder;
    Network network;
    Presence presence;
    String key;

    @BeforeEach
    void setUp() {
        network = new TestNetwork(folder).network;
        presence = network.presence();
        network.users().create(Caller.localAdmin(),
                new Users.NewUser("odin", "Odin", "odin@example.com", Role.MEMBER));
        key = AuthKey.forUser("odin").reusable().create(network);
    }

    @Test
    void departuresThatQueueWhileOneIsWrittenGoInOneTransactionAndEachCallerReturnsWithItsOwnStored()
            throws Exception {
        List<Node> nodes = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            Node node = Machine.named("n" + i).join(network, key);
            presence.connected(node);
            nodes.add(node);
        }
        int groupsBefore = presence.groupsWritten();
        List<Future<Instant>> seen = new ArrayList<>();
        try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
            presence.writing.lock(); // as if another group were being written
            try {
                for (Node node : nodes) {
                    seen.add(threads.submit(() -> {
                        presence.disconnected(node);
                        return network.snapshots().current().node(node.id()).orElseThrow().lastSeen();
                    }));
                }
                waitFor(() -> presence.queuedDepartures() == nodes.size());
                for (Node node : nodes) {
                    assertFalse(network.snapshots().current().entry(node.id()).orElseThrow().online(),
                            "offline at once, before its last-seen time is written");
                }
            } finally {
                presence.writing.unlock();
            }
            for (Future<Instant> lastSeen : seen) {
                assertNotNull(lastSeen.get(10, TimeUnit.SECONDS), "stored when disconnected returns");
            }
        }
        assertEquals(groupsBefore + 1, presence.groupsWritten(), "one transaction for the 40 departures");
        assertEquals(0, presence.queuedDepartures());
    }

    @Test
    void aNodeBackOnlineBeforeItsDepartureIsWrittenIsNotAnnouncedOffline() throws Exception {
        Node node = Machine.named("laptop").join(network, key);
        presence.connected(node);
        List<String> announced = new CopyOnWriteArrayList<>();
        network.events().subscribe(event -> {
            if (event instanceof MeshEvent.NodeChanged changed && changed.node().id() == node.id()) {
                announced.add(changed.what());
            }
        });
        try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
            Future<?> departure;
            presence.writing.lock();
            try {
                departure = threads.submit(() -> presence.disconnected(node));
                waitFor(() -> presence.queuedDepartures() == 1);
                presence.connected(node); // back before the departure is written
            } finally {
                presence.writing.unlock();
            }
            departure.get(10, TimeUnit.SECONDS);
        }
        assertEquals(List.of("online"), announced);
        assertTrue(network.snapshots().current().entry(node.id()).orElseThrow().online());
        assertNotNull(network.snapshots().current().node(node.id()).orElseThrow().lastSeen(), "still stored");

        presence.disconnected(node);
        assertEquals(List.of("online", "offline"), announced);
    }

    private static void waitFor(java.util.function.BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("condition not met within 10 s");
            }
            Thread.sleep(5);
        }
    }
}
