package io.meshcontrol.core.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DatabaseTest {

    @TempDir
    Path folder;

    @Test
    void migrationIndexListsEverySqlFileInOrder() throws IOException {
        List<String> onDisk;
        try (Stream<Path> files = Files.list(Path.of("src/main/resources/db/migration"))) {
            onDisk = files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".sql"))
                    .sorted((a, b) -> Integer.compare(version(a), version(b))).toList();
        }
        assertEquals(onDisk, MigrationIndex.readIndex());
    }

    @Test
    void tailnetIdHasTheVendorShapeAndSurvivesReopening() {
        Path file = folder.resolve("sub/db.sqlite");
        String first = new TailnetStore(Database.open(file, true).jdbi()).ensureTailnetId(Instant.now());
        String second = new TailnetStore(Database.open(file, true).jdbi()).ensureTailnetId(Instant.now());
        assertTrue(first.matches("[A-Za-z0-9]{5,20}CNTRL"), first);
        assertEquals(first, second);
    }

    @Test
    void foreignKeysAndWriteAheadLogAreOn() {
        Database db = Database.open(folder.resolve("db.sqlite"), true);
        int foreignKeys = db.jdbi().withHandle(h -> h.createQuery("PRAGMA foreign_keys").mapTo(Integer.class).one());
        assertEquals(1, foreignKeys);
        assertEquals("wal", db.jdbi().withHandle(h -> h.createQuery("PRAGMA journal_mode").mapTo(String.class).one()));
        int synchronous = db.jdbi().withHandle(h -> h.createQuery("PRAGMA synchronous").mapTo(Integer.class).one());
        assertEquals(2, synchronous, "synchronous=FULL");
        assertTrue(db.isReachable());
    }

    private static int version(String file) {
        return Integer.parseInt(file.substring(1, file.indexOf("__")));
    }
}
