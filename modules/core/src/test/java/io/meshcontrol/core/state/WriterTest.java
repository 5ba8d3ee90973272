package io.meshcontrol.core.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.core.MeshException;
import io.meshcontrol.core.auth.Caller;
import io.meshcontrol.core.model.Role;
import io.meshcontrol.core.store.AuditStore;
import io.meshcontrol.core.testing.TestNetwork;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jdbi.v3.core.Jdbi;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The one mutation path: permission first, then the change and its audit entry in one transaction, then the feed. */
class WriterTest {

    @TempDir
    Path folder;
    TestNetwork net;
    Jdbi jdbi;
    Writer writer;
    final List<StateChange> feed = new CopyOnWriteArrayList<>();

    @BeforeEach
    void setUp() {
        net = new TestNetwork(folder);
        jdbi = net.network.database().jdbi();
        jdbi.useHandle(h -> h.execute("CREATE TABLE scratch (value INTEGER)"));
        writer = new Writer(jdbi, net.network.database().dialect(), new AuditStore(), net.network.snapshots(), net.clock);
        net.network.snapshots().subscribe(feed::add);
    }

    private int scratchRows() {
        return jdbi.withHandle(h -> h.createQuery("SELECT COUNT(*) FROM scratch").mapTo(Integer.class).one());
    }

    @Test
    void aChangeThatWritesRowsWithoutAnAuditEntryFailsAndSavesNothing() {
        IllegalStateException refused = assertThrows(IllegalStateException.class,
                () -> writer.write(net.admin, "dns", (h, now) -> h.execute("INSERT INTO scratch VALUES (1)")));

        assertTrue(refused.getMessage().contains("without an audit entry"), refused.getMessage());
        assertEquals(0, scratchRows(), "rolled back");
        assertEquals(List.of(), feed);
    }

    @Test
    void aChangeWithItsAuditEntryCommitsBothAndPutsTheEntryOnTheFeedAfterCommitting() {
        List<Integer> rowsSeenByFeed = new CopyOnWriteArrayList<>();
        net.network.snapshots().subscribe(change -> rowsSeenByFeed.add(scratchRows()));

        String answer = writer.change(net.admin, "dns", (h, now) -> {
            h.execute("INSERT INTO scratch VALUES (1)");
            new AuditStore().append(h, net.admin.audited(now, "scratch.add", "1", Map.of("value", "1")));
            return "done";
        });

        assertEquals("done", answer);
        assertEquals(1, scratchRows());
        StateChange.Recorded recorded = (StateChange.Recorded) feed.getFirst();
        assertEquals("scratch.add", recorded.entry().action());
        assertEquals(net.network.auditLog().recent("scratch.add", 1).getFirst(), recorded.entry(),
                "the entry as it was written, with its id");
        assertEquals(List.of(1), rowsSeenByFeed, "the descriptor arrives once the change is committed");
    }

    @Test
    void aChangeThatWritesNothingNeedsNoEntryAndPublishesNothing() {
        assertEquals(0, (int) writer.change(net.admin, "dns", (h, now) -> scratchRows()));
        assertEquals(List.of(), feed);
    }

    @Test
    void theCallersPermissionIsCheckedBeforeTheChangeReadsAnything() {
        Caller member = net.callerFor(net.user("thor", Role.ADMIN).name(), List.of("devices:core:read"));
        feed.clear();
        AtomicBoolean ran = new AtomicBoolean();

        MeshException refused = assertThrows(MeshException.class, () -> writer.write(member, "dns", (h, now) -> {
            ran.set(true);
        }));

        assertEquals(MeshException.Reason.FORBIDDEN, refused.reason());
        assertFalse(ran.get());
        assertEquals(List.of(), feed);
    }

    @Test
    void aChangeThatFailsAfterWritingItsEntryLeavesNeitherRowsNorEntryNorDescriptor() {
        long entriesBefore = net.network.auditLog().recent(null, 1000).size();

        assertThrows(MeshException.class, () -> writer.write(net.admin, "dns", (h, now) -> {
            h.execute("INSERT INTO scratch VALUES (1)");
            new AuditStore().append(h, net.admin.audited(now, "scratch.add", "1", Map.of()));
            throw MeshException.invalid("refused after writing");
        }));

        assertEquals(0, scratchRows());
        assertEquals(entriesBefore, net.network.auditLog().recent(null, 1000).size());
        assertEquals(List.of(), feed);
    }
}
