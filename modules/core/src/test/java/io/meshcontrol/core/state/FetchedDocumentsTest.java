package io.meshcontrol.core.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.core.testing.MovableClock;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Documents fetched for the whole network: stored, replaced, kept across a restart, and due again after their interval. */
class FetchedDocumentsTest {

    private static final Duration DAY = Duration.ofDays(1);

    @TempDir
    Path folder;

    private final MovableClock clock = MovableClock.startingAt2026();
    private Network network;

    @AfterEach
    void close() {
        if (network != null) {
            network.close();
        }
    }

    private FetchedDocuments open() {
        if (network != null) {
            network.close();
        }
        network = Network.open(folder.resolve("db.sqlite"), true, clock, NetworkOptions.defaults());
        return network.fetchedDocuments();
    }

    @Test
    void aSavedDocumentIsKeptAcrossARestartAndDueAgainAfterItsInterval() {
        FetchedDocuments documents = open();
        assertTrue(documents.read("client-release").isEmpty());
        assertTrue(documents.due("client-release", DAY), "never fetched");
        assertTrue(documents.save("client-release", "1.90.9"));

        documents = open();
        assertEquals("1.90.9", documents.read("client-release").orElseThrow().body());
        assertEquals(clock.instant(), documents.read("client-release").orElseThrow().fetchedAt());
        assertFalse(documents.due("client-release", DAY));
        clock.advance(DAY.minusSeconds(1));
        assertFalse(documents.due("client-release", DAY));
        clock.advance(Duration.ofSeconds(1));
        assertTrue(documents.due("client-release", DAY));

        assertFalse(documents.save("client-release", "1.90.9"), "the same body changes nothing");
        assertFalse(documents.due("client-release", DAY), "but dates the copy");
        assertTrue(documents.save("client-release", "1.92.1"));
        assertEquals("1.92.1", documents.read("client-release").orElseThrow().body());
    }

    @Test
    void aFailedAttemptHoldsTheNextOneBackForAnInterval() {
        FetchedDocuments documents = open();
        documents.failed("derp-map:x");
        assertFalse(documents.due("derp-map:x", DAY), "nothing stored, but just tried");
        clock.advance(DAY);
        assertTrue(documents.due("derp-map:x", DAY));
        documents.delete("derp-map:x");
        assertTrue(documents.read("derp-map:x").isEmpty());
    }
}
