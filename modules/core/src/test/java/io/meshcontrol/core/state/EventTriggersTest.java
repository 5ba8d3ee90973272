package io.meshcontrol.core.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.core.MeshException;
import io.meshcontrol.core.address.AddressPool;
import io.meshcontrol.core.event.MeshEvent;
import io.meshcontrol.core.model.Node;
import io.meshcontrol.core.model.Role;
import io.meshcontrol.core.model.User;
import io.meshcontrol.core.testing.AuthKey;
import io.meshcontrol.core.testing.Machine;
import io.meshcontrol.core.testing.TestNetwork;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The events whose triggers issue 16 added or checked: each published once, after its change committed. */
class EventTriggersTest {

    @TempDir
    Path folder;
    TestNetwork net;
    final List<MeshEvent> events = new ArrayList<>();

    @BeforeEach
    void setUp() {
        net = new TestNetwork(folder, new NetworkOptions("100.64.0.0/10", "fd7a:115c:a1e0::/48",
                AddressPool.Allocation.SEQUENTIAL, Duration.ofDays(1)));
        net.user("odin", Role.MEMBER);
        net.network.events().subscribe(events::add);
    }

    private Node join(String hostname) {
        return Machine.named(hostname).join(net.network, AuthKey.forUser("odin").create(net.network));
    }

    private List<String> types() {
        return events.stream().map(MeshEvent::type).toList();
    }

    @Test
    void suspendingAndUnsuspendingPublishOneEventEachWithTheNodeAndTheActor() {
        Node node = join("laptop");
        events.clear();

        Node suspended = net.network.nodes().suspend(net.admin, node.id());
        assertTrue(suspended.suspended());
        assertTrue(net.network.nodes().get(net.admin, node.id()).suspended(), "stored");
        assertEquals(List.of("nodeSuspended"), types());
        MeshEvent.NodeSuspended event = (MeshEvent.NodeSuspended) events.getFirst();
        assertEquals(suspended, event.node());
        assertEquals("local-admin", event.actor());

        MeshException again = assertThrows(MeshException.class, () -> net.network.nodes().suspend(net.admin, node.id()));
        assertEquals(MeshException.Reason.CONFLICT, again.reason());
        assertEquals(1, events.size(), "a refused change tells nobody");

        Node back = net.network.nodes().unsuspend(net.admin, node.id());
        assertFalse(back.suspended());
        assertEquals(List.of("nodeSuspended", "nodeUnsuspended"), types());
        assertEquals(back, ((MeshEvent.NodeUnsuspended) events.getLast()).node());
        assertThrows(MeshException.class, () -> net.network.nodes().unsuspend(net.admin, node.id()));
        assertEquals(2, events.size());
    }

    @Test
    void aSuspendedNodeKeepsItsRowAndIsOutOfThePolicysView() {
        Node node = join("laptop");
        net.network.nodes().suspend(net.admin, node.id());
        Node stored = net.network.nodes().get(net.admin, node.id());
        assertEquals(node.ipv4(), stored.ipv4());
        assertTrue(PolicyInventories.of(net.network.snapshots().current()).nodes().isEmpty());
        Node reopened = net.reopened(folder).nodes().get(net.admin, node.id());
        assertTrue(reopened.suspended(), "a suspension survives a restart");
    }

    @Test
    void aKeyThatExpiresByItselfIsAnnouncedOnceAcrossRestarts() {
        Node node = join("laptop");
        events.clear();
        assertEquals(0, net.network.nodes().announceExpiredKeys(), "not expired yet");

        net.clock.advance(Duration.ofDays(1).plusSeconds(1));
        assertEquals(1, net.network.nodes().announceExpiredKeys());
        assertEquals(List.of("nodeKeyExpired"), types());
        assertEquals(node.id(), ((MeshEvent.NodeKeyExpired) events.getFirst()).node().id());
        assertEquals(node.keyExpiry(), ((MeshEvent.NodeKeyExpired) events.getFirst()).node().keyExpiry());

        assertEquals(0, net.network.nodes().announceExpiredKeys());
        assertEquals(0, net.reopened(folder).nodes().announceExpiredKeys(), "announced is stored");
        assertEquals(1, events.size());
    }

    @Test
    void anAdministratorsExpiryIsAnnouncedThereAndNotAgainByHousekeeping() {
        Node node = join("laptop");
        events.clear();
        net.network.nodes().expire(net.admin, node.id());
        assertEquals(List.of("nodeKeyExpired"), types());
        net.clock.advance(Duration.ofDays(2));
        assertEquals(0, net.network.nodes().announceExpiredKeys());
        assertEquals(1, events.size());
    }

    @Test
    void aRoleChangePublishesOneEventWithOldAndNewRoleAndTheActor() {
        User thor = net.user("thor", Role.MEMBER);
        events.clear();
        net.network.users().update(net.admin, thor.id(),
                new Users.UserChange(null, null, null, Role.NETWORK_ADMIN));
        assertEquals(List.of("userRoleUpdated"), types());
        MeshEvent.UserRoleUpdated event = (MeshEvent.UserRoleUpdated) events.getFirst();
        assertEquals(Role.MEMBER, event.oldRole());
        assertEquals(Role.NETWORK_ADMIN, event.newRole());
        assertSame(Role.NETWORK_ADMIN, event.user().role());
        assertEquals("local-admin", event.actor());
    }
}
