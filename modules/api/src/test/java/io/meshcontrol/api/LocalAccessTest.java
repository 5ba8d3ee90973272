package io.meshcontrol.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.DisabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/** The local credential file a running server leaves for the CLI on its machine: where it lives, how it is written. */
@DisabledOnOs(OS.WINDOWS)
class LocalAccessTest {

    private static final Path HOME = Path.of("/home/odin");

    @TempDir
    Path folder;

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
    void writtenOwnerOnlyInAnOwnerOnlyFolderAndReadBack() throws IOException {
        Path file = folder.resolve("run/svc/cli-credential.json");
        LocalAccess access = LocalAccess.ofThisProcess("http://127.0.0.1:8080", "svckey-local-abc", "run-1");
        access.write(file);
        assertEquals(access, LocalAccess.read(file));
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file.getParent())));
        assertFalse(Files.exists(folder.resolve("run/svc/cli-credential.json.tmp")), "no temporary file is left");
    }

    @Test
    void aRestartedServerReplacesTheOldCredential() throws IOException {
        Path file = folder.resolve("cli.json");
        LocalAccess.ofThisProcess("http://127.0.0.1:1", "old", "run-1").write(file);
        LocalAccess.ofThisProcess("http://127.0.0.1:2", "new", "run-2").write(file);
        assertEquals(LocalAccess.ofThisProcess("http://127.0.0.1:2", "new", "run-2"), LocalAccess.read(file));
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
    }

    @Test
    void aLeftoverTemporaryFileFromACrashIsNoObstacle() throws IOException {
        Path file = folder.resolve("cli.json");
        Files.writeString(folder.resolve("cli.json.tmp"), "half written");
        LocalAccess.ofThisProcess("http://127.0.0.1:3", "t", "run-3").write(file);
        assertEquals("t", LocalAccess.read(file).token());
    }

    @Test
    void theWriterIsRunningWhileItsProcessIsAliveWithTheRecordedStartTime() {
        assertTrue(LocalAccess.ofThisProcess("http://127.0.0.1:1", "t", "run").writerRunning());
    }

    @Test
    void theWriterIsNotRunningOnceItsProcessHasEnded() throws Exception {
        Process ended = new ProcessBuilder("true").start();
        ended.waitFor();
        Instant started = ended.info().startInstant().orElse(null);
        assertFalse(new LocalAccess("http://127.0.0.1:1", "t", ended.pid(), started, "run").writerRunning());
    }

    @Test
    void aProcessThatGotThePidLaterIsNotTheWriter() {
        ProcessHandle self = ProcessHandle.current();
        Instant earlier = self.info().startInstant().orElseThrow().minus(Duration.ofHours(1));
        assertFalse(new LocalAccess("http://127.0.0.1:1", "t", self.pid(), earlier, "run").writerRunning());
    }

    @Test
    void aCredentialThatNamesNoProcessHasNoWriterRunning() {
        assertFalse(new LocalAccess("http://127.0.0.1:1", "t", null, null, null).writerRunning());
    }
}
