package io.meshcontrol.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.api.MeshClient;
import io.meshcontrol.api.UserRequest;
import io.meshcontrol.server.testing.TestServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code database.sqlite.wal_autocheckpoint: 0}: SQLite no longer checkpoints on commit, the server does on its own. */
class WalCheckpointTest {

    @TempDir
    Path folder;

    @Test
    void withAutomaticCheckpointsOffTheServerEmptiesTheWriteAheadLogOnItsSchedule() throws Exception {
        try (TestServer server = TestServer.in(folder).set("database.sqlite.wal_autocheckpoint", "0").start()) {
            Path log = server.dataDir.resolve("db.sqlite-wal");
            MeshClient admin = server.adminClient();
            for (int i = 0; i < 20; i++) {
                admin.createUser(new UserRequest("user" + i, null, null, null));
            }
            assertTrue(Files.size(log) > 0, "the writes are in the log");
            // Nothing else empties the log: SQLite's own checkpoints (when on) copy it but leave the file as it is.
            Instant deadline = Instant.now().plus(Housekeeping.CHECKPOINT_INTERVAL.multipliedBy(6));
            while (Files.size(log) > 0 && Instant.now().isBefore(deadline)) {
                Thread.sleep(100);
            }
            assertEquals(0, Files.size(log), "the server checkpointed and truncated the log");
            assertEquals(20, admin.users().stream().filter(user -> user.name().startsWith("user")).count(),
                    "every write is still there");
        }
    }
}
