package io.meshcontrol.core;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The umask of the test run (typically 022) would give new files 0644 and folders 0755; these must come out 0600 and
 * 0700 all the same. (The umask cannot be changed inside the JVM, so a permissive one is not tried here.)
 */
class OwnerOnlyFilesTest {

    @TempDir
    Path folder;

    @Test
    void aWrittenFileAndTheFoldersMadeForItAreOwnerOnly() throws Exception {
        Path file = folder.resolve("a/b/secret.key");
        OwnerOnlyFiles.write(file, "first".getBytes(StandardCharsets.US_ASCII));
        assertEquals(OwnerOnlyFiles.FILE, Files.getPosixFilePermissions(file));
        assertEquals(OwnerOnlyFiles.FOLDER, Files.getPosixFilePermissions(folder.resolve("a")));
        assertEquals(OwnerOnlyFiles.FOLDER, Files.getPosixFilePermissions(folder.resolve("a/b")));

        OwnerOnlyFiles.write(file, "second".getBytes(StandardCharsets.US_ASCII));
        assertEquals("second", Files.readString(file));
        assertEquals(OwnerOnlyFiles.FILE, Files.getPosixFilePermissions(file));
        try (Stream<Path> left = Files.list(file.getParent())) {
            assertEquals(List.of(file), left.toList(), "no temporary file left behind");
        }
    }

    @Test
    void existingFilesAndFoldersAreLeftAsTheyAre() throws Exception {
        Path shared = Files.createDirectory(folder.resolve("shared"),
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwxr-x---")));
        Path kept = Files.writeString(shared.resolve("kept.sqlite"), "data");
        Files.setPosixFilePermissions(kept, PosixFilePermissions.fromString("rw-r-----"));
        OwnerOnlyFiles.createFile(kept);
        assertEquals("data", Files.readString(kept));
        assertEquals(PosixFilePermissions.fromString("rw-r-----"), Files.getPosixFilePermissions(kept));
        assertEquals(PosixFilePermissions.fromString("rwxr-x---"), Files.getPosixFilePermissions(shared));

        Path created = shared.resolve("new.sqlite");
        OwnerOnlyFiles.createFile(created);
        assertEquals(0, Files.size(created));
        assertEquals(OwnerOnlyFiles.FILE, Files.getPosixFilePermissions(created));
    }
}
