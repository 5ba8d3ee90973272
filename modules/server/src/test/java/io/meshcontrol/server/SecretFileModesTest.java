package io.meshcontrol.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.core.OwnerOnlyFiles;
import io.meshcontrol.server.testing.TestServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Everything a running server has written to its data folder (the database and its log, the Noise key, the relay's
 * key and TLS certificate, the local CLI credential) is the server's account's only, and so is the folder it made.
 */
class SecretFileModesTest {

    @TempDir
    Path folder;

    @Test
    void theDataFolderAndEveryFileInItAreOwnerOnly() throws Exception {
        Path data = folder.resolve("data");
        try (TestServer server = TestServer.in(folder).relay(false).start()) {
            assertTrue(server.server.relay().isPresent());
            List<Path> files;
            try (Stream<Path> listed = Files.list(data)) {
                files = listed.toList();
            }
            Set<String> names = files.stream().map(p -> p.getFileName().toString()).collect(Collectors.toSet());
            assertTrue(names.containsAll(Set.of("db.sqlite", "noise_private.key", "derp_server_private.key",
                    "cli-credential.json")), names.toString());
            assertTrue(names.stream().anyMatch(name -> name.contains("tls")), "the relay's TLS certificate: " + names);
            for (Path file : files) {
                try {
                    assertEquals(OwnerOnlyFiles.FILE, Files.getPosixFilePermissions(file), file.toString());
                } catch (java.nio.file.NoSuchFileException gone) {
                    // SQLite may remove its -wal and -shm files between the listing and the look
                    assertTrue(file.getFileName().toString().startsWith("db.sqlite-"), file + " vanished");
                }
            }
            assertEquals(OwnerOnlyFiles.FOLDER, Files.getPosixFilePermissions(data));
        }
    }
}
