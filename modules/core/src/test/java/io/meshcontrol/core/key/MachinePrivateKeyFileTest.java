package io.meshcontrol.core.key;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MachinePrivateKeyFileTest {

    @TempDir
    Path directory;

    @Test
    void createsAKeyFileReadableOnlyByItsOwnerAndLoadsItAgain() throws IOException {
        Path file = directory.resolve("noise_private.key");
        MachinePrivateKey created = MachinePrivateKey.loadOrCreate(file);

        String text = Files.readString(file, StandardCharsets.US_ASCII);
        assertEquals(created.toText() + "\n", text);
        assertTrue(text.startsWith("privkey:"));
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
        assertFalse(created.isZero());

        assertEquals(created, MachinePrivateKey.loadOrCreate(file));
        assertEquals(created.publicKey(), MachinePrivateKey.loadOrCreate(file).publicKey());
        try (var files = Files.list(directory)) {
            assertEquals(1, files.count(), "no temporary file is left behind");
        }
    }

    @Test
    void createsMissingDirectoriesForTheKeyFile() throws IOException {
        Path file = directory.resolve("state/keys/noise_private.key");
        MachinePrivateKey created = MachinePrivateKey.loadOrCreate(file);
        assertEquals(created, MachinePrivateKey.load(file));
        assertEquals("rwx------",
                PosixFilePermissions.toString(Files.getPosixFilePermissions(file.getParent())));
    }

    @Test
    void loadsAKeyWrittenByHeadscaleWithoutANewline() throws IOException {
        Path file = directory.resolve("noise_private.key");
        MachinePrivateKey key = MachinePrivateKey.generate();
        Files.writeString(file, key.toText());
        assertEquals(key, MachinePrivateKey.loadOrCreate(file));
    }

    @Test
    void refusesAFileThatHoldsNoPrivateKeyWithoutShowingItsContent() throws IOException {
        Path file = directory.resolve("noise_private.key");
        String secretLooking = "mkey:" + "ab".repeat(32);
        Files.writeString(file, secretLooking);
        IOException e = assertThrows(IOException.class, () -> MachinePrivateKey.loadOrCreate(file));
        assertTrue(e.getMessage().startsWith("machine key file " + file + " does not hold a private key"),
                e.getMessage());
        assertFalse(e.getMessage().contains("abab"));
        assertEquals(secretLooking, Files.readString(file), "a bad key file is never overwritten");
    }

    @Test
    void refusesTheZeroKey() throws IOException {
        Path file = directory.resolve("noise_private.key");
        Files.writeString(file, "privkey:" + "0".repeat(64));
        IOException e = assertThrows(IOException.class, () -> MachinePrivateKey.loadOrCreate(file));
        assertEquals("machine key file " + file + " holds the zero key", e.getMessage());
    }
}
