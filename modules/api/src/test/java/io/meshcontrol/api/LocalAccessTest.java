package io.meshcontrol.api;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LocalAccessTest {

    @TempDir
    Path folder;

    @Test
    void theCredentialIsReadableByItsOwnerOnlyAndReadsBack() throws IOException {
        Path file = folder.resolve("data").resolve("cli-credential.json");
        LocalAccess access = new LocalAccess("http://127.0.0.1:8080", "secret-token");
        access.write(file);
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
        assertEquals(access, LocalAccess.read(file));

        new LocalAccess("http://127.0.0.1:9090", "next").write(file);
        assertEquals("next", LocalAccess.read(file).token(), "a second write replaces the first");
    }
}
