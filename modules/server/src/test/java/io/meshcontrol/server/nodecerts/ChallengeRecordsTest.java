package io.meshcontrol.server.nodecerts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.meshcontrol.core.testing.MovableClock;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * What happens to the records nodes asked for: each is removed once its lifetime has passed, a new value for a name
 * replaces the old one (removed first), and a record the provider could not publish is not kept.
 */
class ChallengeRecordsTest {

    private static final Duration LIFETIME = Duration.ofMinutes(10);
    private static final TxtRecord WEB = new TxtRecord("_acme-challenge.web.mesh.test", "first");
    private static final TxtRecord WEB_AGAIN = new TxtRecord("_acme-challenge.web.mesh.test", "second");
    private static final TxtRecord DB = new TxtRecord("_acme-challenge.db.mesh.test", "third");

    final MovableClock clock = MovableClock.startingAt2026();
    final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();
    final List<String> calls = new ArrayList<>();
    final ChallengeRecords records = new ChallengeRecords(new DnsProvider() {
        @Override
        public void publish(TxtRecord record) throws IOException {
            if (record.value().equals("refused")) {
                throw new IOException("refused");
            }
            calls.add("publish " + record.value());
        }

        @Override
        public void remove(TxtRecord record) {
            calls.add("remove " + record.value());
        }
    }, LIFETIME, clock, scheduler);

    @AfterEach
    void stop() {
        scheduler.shutdownNow();
    }

    @Test
    void aRecordIsRemovedOnceItsLifetimeHasPassed() throws Exception {
        records.publish(WEB);
        clock.advance(Duration.ofMinutes(5));
        records.publish(DB);
        clock.advance(Duration.ofMinutes(5).minusSeconds(1));
        records.removeExpired();
        assertEquals(List.of(WEB, DB), records.published());

        clock.advance(Duration.ofSeconds(1));
        records.removeExpired();
        assertEquals(List.of(DB), records.published());
        assertEquals(List.of("publish first", "publish third", "remove first"), calls);

        clock.advance(Duration.ofMinutes(5));
        records.removeExpired();
        assertEquals(List.of(), records.published());
        assertEquals("remove third", calls.getLast());
    }

    @Test
    void aNewValueForANameReplacesTheOldOne() throws Exception {
        records.publish(WEB);
        records.publish(WEB_AGAIN);
        assertEquals(List.of("publish first", "remove first", "publish second"), calls);
        assertEquals(List.of(WEB_AGAIN), records.published());

        records.publish(WEB_AGAIN);
        assertEquals("publish second", calls.getLast(), "the same record again is published again, not removed");
    }

    @Test
    void aRecordTheProviderRefusedIsNotKept() throws Exception {
        assertThrows(IOException.class, () -> records.publish(new TxtRecord(WEB.name(), "refused")));
        assertEquals(List.of(), records.published());
    }
}
