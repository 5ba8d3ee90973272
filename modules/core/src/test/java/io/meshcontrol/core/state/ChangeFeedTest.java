package io.meshcontrol.core.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.core.event.MeshEvent;
import io.meshcontrol.core.model.AuditEntry;
import io.meshcontrol.core.model.Node;
import io.meshcontrol.core.model.PendingDelivery;
import io.meshcontrol.core.model.Role;
import io.meshcontrol.core.model.User;
import io.meshcontrol.core.testing.AuthKey;
import io.meshcontrol.core.testing.Machine;
import io.meshcontrol.core.testing.TestNetwork;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The change feed: every committed change reaches it once, in commit order, whatever changed (node, user, policy, map
 * context), and the event bus after it; a write that rolls back reaches neither.
 */
class ChangeFeedTest {

    private static final String POLICY = "{\"acls\": [{\"action\": \"accept\", \"src\": [\"*\"], \"dst\": [\"*:*\"]}]}";

    @TempDir
    Path folder;
    TestNetwork net;
    Network network;
    String key;
    final List<StateChange> changes = new CopyOnWriteArrayList<>();
    final List<MeshEvent> events = new CopyOnWriteArrayList<>();

    @BeforeEach
    void setUp() {
        net = new TestNetwork(folder);
        network = net.network;
        net.user("odin", Role.MEMBER);
        key = net.authKey(AuthKey.forUser("odin").reusable());
        network.snapshots().subscribe(changes::add);
        network.events().subscribe(events::add);
    }

    private Node join(String hostname) {
        return net.join(Machine.named(hostname), key);
    }

    private static String describe(StateChange change) {
        return switch (change) {
            case StateChange.NodeChanged node -> "node " + node.nodeId();
            case StateChange.UserChanged user -> "user " + user.userId();
            case StateChange.PolicyChanged policy -> "policy";
            case StateChange.MapContextChanged context -> "map context";
            case StateChange.NodeAttributesChanged attributes -> "node attributes";
            case StateChange.Recorded recorded -> "recorded " + recorded.entry().action();
            case StateChange.DeliveryFinished delivery -> "delivery to " + delivery.webhookId();
        };
    }

    @Test
    void everyChangeArrivesInCommitOrderEachWithTheSnapshotThatHasItAndAnAdministrativeOneWithItsAuditEntry() {
        Node a = join("a");
        User thor = net.user("thor", Role.MEMBER);
        net.policy(POLICY);
        network.nodes().rename(net.admin, a.id(), "renamed");
        network.users().update(net.admin, thor.id(), new Users.UserChange(null, "Thor", null, null));
        network.mapContext().latestClientVersion("1.90.9");
        network.nodes().delete(net.admin, a.id());

        // A change's own effects first, then its descriptor: whoever follows the descriptors finds them applied.
        assertEquals(List.of("node " + a.id(), "user " + thor.id(), "recorded user.create", "policy",
                "recorded policy.update", "node " + a.id(), "recorded node.update", "user " + thor.id(),
                "recorded user.update", "map context", "node " + a.id(), "recorded node.delete"),
                changes.stream().map(ChangeFeedTest::describe).toList());
        for (int i = 1; i < changes.size(); i++) {
            assertTrue(changes.get(i).snapshot().version() >= changes.get(i - 1).snapshot().version(),
                    "a later change never carries an older snapshot");
        }
        assertEquals("a", changes.get(0).snapshot().node(a.id()).orElseThrow().givenName());
        assertEquals(POLICY, ((StateChange.PolicyChanged) changes.get(3)).policy().text());
        assertSame(network.policies().policy(), ((StateChange.PolicyChanged) changes.get(3)).policy(),
                "the policy on the feed is the one in force");
        StateChange.Recorded renamed = (StateChange.Recorded) changes.get(6);
        assertEquals("renamed", renamed.snapshot().node(a.id()).orElseThrow().givenName());
        assertEquals(Long.toString(a.id()), renamed.entry().target());
        assertEquals(net.admin.actor(), renamed.entry().actor());
        List<AuditEntry> recorded = changes.stream().filter(StateChange.Recorded.class::isInstance)
                .map(c -> ((StateChange.Recorded) c).entry()).toList();
        assertEquals(network.auditLog().recent(null, recorded.size()).reversed(), recorded,
                "the newest audit entries, as written, in the order they were written");
        assertEquals("Thor", changes.get(7).snapshot().user(thor.id()).orElseThrow().displayName());
        assertTrue(changes.getLast().snapshot().node(a.id()).isEmpty());
        assertSame(network.snapshots().current(), changes.getLast().snapshot());
    }

    @Test
    void eachCommittedChangePublishesItsEventOnceWithTheFeedAlreadyHoldingIt() {
        List<Boolean> feedHadIt = new CopyOnWriteArrayList<>();
        network.events().subscribe(event -> {
            if (event instanceof MeshEvent.NodeEvent nodeEvent) {
                Optional<Node> held = network.snapshots().current().node(nodeEvent.node().id());
                feedHadIt.add(event instanceof MeshEvent.NodeDeleted ? held.isEmpty()
                        : held.equals(Optional.of(nodeEvent.node())));
            }
        });
        Node a = join("a");
        network.nodes().rename(net.admin, a.id(), "renamed");
        User thor = net.user("thor", Role.MEMBER);
        network.users().update(net.admin, thor.id(), new Users.UserChange("thor", null, null, null)); // no change
        net.policy(POLICY);
        network.registrations().logout(a.machineKey(), a.nodeKey());
        network.nodes().delete(net.admin, a.id());
        assertTrue(network.registrations().logout(a.machineKey(), a.nodeKey()).isEmpty(), "gone: nothing to publish");

        assertEquals(List.of("nodeCreated", "nodeChanged", "userCreated", "policyUpdate", "nodeKeyExpired",
                "nodeDeleted"), events.stream().map(MeshEvent::type).toList());
        assertEquals(List.of(true, true, true, true), feedHadIt);
    }

    @Test
    void aWriteThatRollsBackReachesNeitherTheFeedNorTheEventBus() {
        // Fails the registration's last statement, after its node row was written in the same transaction.
        network.database().jdbi().useHandle(h -> {
            if (network.database().dialect() == io.meshcontrol.core.store.Dialect.POSTGRES) {
                h.execute("CREATE FUNCTION refuse() RETURNS trigger LANGUAGE plpgsql AS "
                        + "$$ BEGIN RAISE EXCEPTION 'forced failure'; END $$");
                h.execute("CREATE TRIGGER refuse_key_use BEFORE UPDATE ON pre_auth_keys FOR EACH ROW "
                        + "EXECUTE FUNCTION refuse()");
            } else {
                h.execute("CREATE TRIGGER refuse_key_use BEFORE UPDATE ON pre_auth_keys BEGIN "
                        + "SELECT RAISE(ABORT, 'forced failure'); END");
            }
        });
        NetworkSnapshot before = network.snapshots().current();

        RuntimeException failed = assertThrows(RuntimeException.class, () -> join("a"));
        assertTrue(failed.getMessage().contains("forced failure"), failed.getMessage());

        assertEquals(List.of(), changes);
        assertEquals(List.of(), events);
        assertSame(before, network.snapshots().current());
        assertEquals(List.of(), network.nodes().list(net.admin), "the node row was rolled back");
    }

    @Test
    void aChangeMadeByAListenerReachesEveryListenerAfterTheChangeItAnswered() {
        Node a = join("a");
        Node b = join("b");
        changes.clear();
        network.snapshots().subscribe(change -> {
            if (change instanceof StateChange.NodeChanged node && node.nodeId() == a.id()) {
                network.snapshots().touch(b.id()); // as the route election answers a router's change
            }
        });
        List<StateChange> later = new CopyOnWriteArrayList<>();
        network.snapshots().subscribe(later::add);

        network.nodes().rename(net.admin, a.id(), "renamed");

        List<String> expected = List.of("node " + a.id(), "node " + b.id(), "recorded node.update");
        assertEquals(expected, changes.stream().map(ChangeFeedTest::describe).toList(), "a listener before it");
        assertEquals(expected, later.stream().map(ChangeFeedTest::describe).toList(), "a listener after it");
        assertEquals(later.get(0).snapshot().version() + 1, later.get(1).snapshot().version());
    }

    @Test
    void aDeliveryThatEndsInItsEndpointsHistoryIsOnTheFeedOnce() {
        Webhooks webhooks = network.webhooks();
        webhooks.checkTargetsWith((url, provider) -> Optional.empty());
        webhooks.deliverWith(event -> "{\"type\":\"" + event.type() + "\"}", () -> { });
        String id = webhooks.create(net.admin, new Webhooks.Fields("https://hooks.example/x", "", List.of()))
                .endpoint().id();
        webhooks.test(net.admin, id);
        PendingDelivery pending = webhooks.pending(id).getFirst();
        changes.clear();

        assertTrue(webhooks.finish(pending, 500, "refused", 4, java.time.Duration.ofMillis(7)).isPresent());
        assertTrue(webhooks.finish(pending, 500, "refused", 4, java.time.Duration.ofMillis(7)).isEmpty(),
                "already in the history");
        assertEquals(List.of("delivery to " + id), changes.stream().map(ChangeFeedTest::describe).toList());
        assertEquals("refused", webhooks.deliveries(net.admin, id).getFirst().error());
    }
}
