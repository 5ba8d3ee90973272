package io.meshcontrol.core.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.core.model.PendingDelivery;
import io.meshcontrol.core.testing.Await;
import io.meshcontrol.core.testing.TestNetwork;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Claims on the delivery outbox (on SQLite, and on PostgreSQL with {@code -Dsvc.test.database=postgres}): a claimed
 * delivery is picked by nobody else until it is finished, rescheduled, released or its claim runs out, and a worker
 * whose claim was taken over can no longer finish or reschedule it.
 */
class DeliveryClaimTest {

    private static final Duration MINUTE = Duration.ofMinutes(1);

    @TempDir
    Path folder;
    TestNetwork net;
    Webhooks webhooks;
    String endpoint;

    @BeforeEach
    void setUp() {
        net = new TestNetwork(folder);
        webhooks = net.network.webhooks();
        webhooks.checkTargetsWith((url, provider) -> Optional.empty());
        webhooks.deliverWith(event -> "{\"type\":\"" + event.type() + "\"}", () -> { });
        endpoint = webhooks.create(net.admin, new Webhooks.Fields("https://hooks.example/x", "", List.of()))
                .endpoint().id();
        for (int i = 0; i < 3; i++) {
            webhooks.test(net.admin, endpoint);
        }
    }

    @AfterEach
    void close() {
        net.network.close();
    }

    @Test
    void aClaimedDeliveryIsPickedByNoOtherClaimUntilReleased() {
        List<PendingDelivery> first = webhooks.claimDue(2, "a-x:1", MINUTE);
        assertEquals(2, first.size());
        assertTrue(first.stream().allMatch(p -> "a-x:1".equals(p.claim())));
        List<PendingDelivery> second = webhooks.claimDue(5, "b-y:1", MINUTE);
        assertEquals(1, second.size(), "only the one nobody claimed");
        assertFalse(first.stream().anyMatch(p -> p.id() == second.getFirst().id()));
        assertEquals(List.of(), webhooks.claimDue(5, "b-y:2", MINUTE), "everything due is claimed");

        webhooks.releaseClaims("a-x:");
        List<PendingDelivery> released = webhooks.claimDue(5, "b-y:3", MINUTE);
        assertEquals(first.stream().map(PendingDelivery::id).toList(),
                released.stream().map(PendingDelivery::id).toList());
    }

    @Test
    void aClaimThatRanOutIsTakenOverAndTheOldClaimantCanNoLongerFinishIt() throws InterruptedException {
        List<PendingDelivery> lapsing = webhooks.claimDue(1, "dead-x:1", Duration.ofMillis(1));
        assertEquals(1, lapsing.size());
        PendingDelivery old = lapsing.getFirst();
        // The claim runs out by the database's clock, whatever the network's (moved) clock says.
        Await.until("the claim ran out and another took it", () -> webhooks.claimDue(3, "live-y:" + System.nanoTime(),
                MINUTE).stream().anyMatch(p -> p.id() == old.id()));
        assertTrue(webhooks.finish(old, 200, null, 1, Duration.ZERO).isEmpty(), "no longer the old claimant's");
        assertFalse(webhooks.retryAt(old, 1, net.clock.instant()), "no longer the old claimant's");
        PendingDelivery taken = webhooks.pending(endpoint).stream().filter(p -> p.id() == old.id()).findFirst()
                .orElseThrow();
        assertTrue(webhooks.retryAt(taken, 1, net.clock.instant().plusSeconds(2)), "the new claimant reschedules it");
        PendingDelivery rescheduled = webhooks.pending(endpoint).stream().filter(p -> p.id() == old.id()).findFirst()
                .orElseThrow();
        assertEquals(null, rescheduled.claim(), "a rescheduled delivery is unclaimed");
        assertEquals(1, rescheduled.attempts());
        assertTrue(webhooks.claimDue(3, "z:1", MINUTE).stream().noneMatch(p -> p.id() == old.id()), "not due yet");
    }
}
