package io.meshcontrol.core.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.meshcontrol.core.MeshException;
import io.meshcontrol.core.model.PendingDelivery;
import io.meshcontrol.core.model.Role;
import io.meshcontrol.core.testing.TestNetwork;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Webhook deliveries are written in the transaction of the change that raised their event, and only there. */
class WebhookOutboxTest {

    @TempDir
    Path folder;
    TestNetwork net;
    Webhooks webhooks;
    final AtomicInteger commitsWithDeliveries = new AtomicInteger();

    @BeforeEach
    void setUp() {
        net = new TestNetwork(folder);
        webhooks = net.network.webhooks();
        webhooks.checkTargetsWith((url, provider) -> Optional.empty());
        webhooks.deliverWith(event -> "{\"type\":\"" + event.type() + "\"}", commitsWithDeliveries::incrementAndGet);
    }

    private String endpoint(String... subscriptions) {
        return webhooks.create(net.admin, new Webhooks.Fields("https://hooks.example/x", "", List.of(subscriptions)))
                .endpoint().id();
    }

    @Test
    void aCommittedChangeHasItsDeliveryInTheOutboxWhenItReturns() {
        String users = endpoint("userCreated");
        String nodes = endpoint("nodeCreated");
        net.user("odin", Role.MEMBER);

        List<PendingDelivery> pending = webhooks.pending(users);
        assertEquals(1, pending.size());
        assertEquals(List.of("userCreated"), pending.getFirst().eventTypes());
        assertEquals("[{\"type\":\"userCreated\"}]", pending.getFirst().events());
        assertEquals(List.of(), webhooks.pending(nodes), "an endpoint that does not hear it gets nothing");
        assertEquals(1, commitsWithDeliveries.get(), "the deliverer was told after the commit");
    }

    @Test
    void aRolledBackChangeLeavesNoDelivery() {
        String users = endpoint("userCreated");
        net.user("odin", Role.MEMBER);
        assertThrows(MeshException.class, () -> net.user("odin", Role.MEMBER));
        assertEquals(1, webhooks.pending(users).size());
        assertEquals(1, commitsWithDeliveries.get());
    }

    @Test
    void aTestEventIsInTheOutboxOfItsEndpointAloneWhenTheCallReturns() {
        String asked = endpoint();
        String other = endpoint("categoryTailnetManagement");
        webhooks.test(net.admin, asked);
        assertEquals(List.of("test"), webhooks.pending(asked).getFirst().eventTypes());
        assertEquals(List.of(), webhooks.pending(other));
    }
}
