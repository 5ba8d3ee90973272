package io.meshcontrol.api;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Where the local credential lives when nothing is configured, and how it is written. */
class LocalAccessTest {

    private static final Path HOME = Path.of("/home/odin");

    @Test
    void defaultLocationIsTheRuntimeFolderElseTheStateFolder() {
        assertEquals(Path.of("/run/user/1000/svc/cli-credential.json"),
                LocalAccess.defaultLocation(Map.of("XDG_RUNTIME_DIR", "/run/user/1000", "XDG_STATE_HOME", "/s"), HOME));
        assertEquals(Path.of("/s/svc/cli-credential.json"),
                LocalAccess.defaultLocation(Map.of("XDG_STATE_HOME", "/s"), HOME));
        assertEquals(Path.of("/home/odin/.local/state/svc/cli-credential.json"),
                LocalAccess.defaultLocation(Map.of(), HOME));
    }

    @Test
    void relativeOrEmptyFoldersInTheEnvironmentAreIgnored() {
        assertEquals(Path.of("/home/odin/.local/state/svc/cli-credential.json"),
                LocalAccess.defaultLocation(Map.of("XDG_RUNTIME_DIR", "run", "XDG_STATE_HOME", ""), HOME));
    }

    @Test
    void writtenOwnerOnlyInAnOwnerOnlyFolderAndReadBack(@TempDir Path folder) throws IOException {
        Path file = folder.resolve("run/svc/cli-credential.json");
        LocalAccess access = new LocalAccess("http://127.0.0.1:8080", "svckey-local-abc");
        access.write(file);
        assertEquals(access, LocalAccess.read(file));
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file.getParent())));
    }
}
