package io.meshcontrol.core.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.core.OwnerOnlyFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.stream.Stream;
import org.jdbi.v3.core.Handle;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.io.TempDir;

class DatabaseTest {

    @TempDir
    Path folder;

    @Test
    void migrationIndexListsEverySqlFileInOrder() throws IOException {
        Path root = Path.of("src/main/resources/db/migration");
        List<String> onDisk;
        try (Stream<Path> files = Files.walk(root)) {
            // A version's engine-specific files: sqlite/ first, then postgres/, as the index lists them.
            onDisk = files.map(p -> root.relativize(p).toString()).filter(n -> n.endsWith(".sql"))
                    .sorted(java.util.Comparator.comparingInt(DatabaseTest::version)
                            .thenComparing(n -> n.startsWith("postgres/"))).toList();
        }
        assertEquals(onDisk, MigrationIndex.readIndex());
    }

    @Test
    void eachEngineRunsEveryVersionOnceWithTheCommonFilesAndItsOwn() {
        List<String> index = MigrationIndex.readIndex();
        List<Integer> versions = index.stream().map(DatabaseTest::version).distinct().toList();
        for (Dialect dialect : Dialect.values()) {
            List<String> own = index.stream()
                    .filter(n -> !n.contains("/") || n.startsWith(dialect.folder() + "/")).toList();
            assertEquals(versions, own.stream().map(DatabaseTest::version).toList(), dialect.name());
        }
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
    void theDatabaseItsLogAndItsFolderAreTheServersAccountsOnly() throws IOException {
        Path file = folder.resolve("made/by/the/server/db.sqlite");
        Database db = Database.open(file, true);
        try (org.jdbi.v3.core.Handle open = db.jdbi().open()) { // while a connection is open, -wal and -shm exist
            open.execute("CREATE TABLE probe (x INTEGER)");
            open.execute("INSERT INTO probe VALUES (1)");
            for (String name : List.of("db.sqlite", "db.sqlite-wal", "db.sqlite-shm")) {
                Path written = file.resolveSibling(name);
                assertTrue(Files.exists(written), name);
                assertEquals(OwnerOnlyFiles.FILE, Files.getPosixFilePermissions(written), name);
            }
        }
        for (Path made = file.getParent(); !made.equals(folder); made = made.getParent()) {
            assertEquals(OwnerOnlyFiles.FOLDER, Files.getPosixFilePermissions(made), made.toString());
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 1, 100, Database.DEFAULT_WAL_AUTOCHECKPOINT, 50_000})
    void walAutocheckpointIsInForceOnEveryConnection(int pages) {
        Database db = Database.open(folder.resolve("db.sqlite"), true, pages, new StatementLogger(false, true,
                java.time.Duration.ZERO, false));
        // Two handles open at once hold two connections of the pool: the setting is per connection.
        try (Handle first = db.jdbi().open(); Handle second = db.jdbi().open()) {
            for (Handle handle : List.of(first, second)) {
                int inForce = handle.createQuery("PRAGMA wal_autocheckpoint").mapTo(Integer.class).one();
                assertEquals(pages, inForce);
            }
        }
        assertEquals(pages == 0, db.checkpointsOnSchedule());
        db.close();
    }

    @Test
    void aCheckpointCopiesTheWriteAheadLogIntoTheDatabaseAndEmptiesIt() throws IOException {
        Path file = folder.resolve("db.sqlite");
        Database db = Database.open(file, true, 0, new StatementLogger(false, true, java.time.Duration.ZERO, false));
        db.jdbi().useHandle(h -> {
            h.execute("CREATE TABLE probe (x INTEGER)");
            for (int i = 0; i < 100; i++) {
                h.execute("INSERT INTO probe VALUES (?)", i);
            }
        });
        Path log = file.resolveSibling("db.sqlite-wal");
        long before = Files.size(log);
        assertTrue(db.checkpoint());
        assertTrue(before > 0, "the writes were in the log");
        assertEquals(0, Files.size(log));
        int rows = db.jdbi().withHandle(h -> h.createQuery("SELECT count(*) FROM probe").mapTo(Integer.class).one());
        assertEquals(100, rows);
        db.close();
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

    @Test
    void concurrentReadThenWriteTransactionsQueueInsteadOfFailing() throws Exception {
        Database db = Database.open(folder.resolve("db.sqlite"), true);
        db.jdbi().useHandle(h -> h.execute("CREATE TABLE counter (n INTEGER)"));
        db.jdbi().useHandle(h -> h.execute("INSERT INTO counter VALUES (0)"));
        int threads = 8;
        int rounds = 25;
        try (var pool = java.util.concurrent.Executors.newFixedThreadPool(threads)) {
            var futures = new java.util.ArrayList<java.util.concurrent.Future<?>>();
            for (int t = 0; t < threads; t++) {
                futures.add(pool.submit(() -> {
                    for (int i = 0; i < rounds; i++) {
                        db.jdbi().useTransaction(h -> {
                            int n = h.createQuery("SELECT n FROM counter").mapTo(Integer.class).one();
                            h.createUpdate("UPDATE counter SET n = :n").bind("n", n + 1).execute();
                        });
                    }
                }));
            }
            for (var future : futures) {
                future.get();
            }
        }
        int total = db.jdbi().withHandle(h -> h.createQuery("SELECT n FROM counter").mapTo(Integer.class).one());
        assertEquals(threads * rounds, total, "no lost update and no SQLITE_BUSY");
    }

    @Test
    void aWaitingWriterParksInsteadOfSleepingInSqlite() throws Exception {
        // SQLite's busy handler sleeps in native code (the thread stays RUNNABLE and, if virtual, pins its carrier);
        // a writer that waits must be parked on a Java lock instead (WAITING), which frees the carrier.
        Database db = Database.open(folder.resolve("db.sqlite"), true);
        db.jdbi().useHandle(h -> h.execute("CREATE TABLE counter (n INTEGER)"));
        db.jdbi().useHandle(h -> h.execute("INSERT INTO counter VALUES (0)"));
        java.util.concurrent.CountDownLatch holding = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
        Thread first = Thread.ofVirtual().start(() -> db.jdbi().useTransaction(h -> {
            h.createUpdate("UPDATE counter SET n = n + 1").execute();
            holding.countDown();
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }));
        holding.await();
        Thread second = Thread.ofVirtual().start(() -> db.jdbi().useTransaction(h ->
                h.createUpdate("UPDATE counter SET n = n + 1").execute()));
        Thread.State waiting = awaitBlocked(second);
        release.countDown();
        first.join();
        second.join();
        assertEquals(Thread.State.WAITING, waiting, "the second writer waits parked, not in SQLite's busy loop");
        int total = db.jdbi().withHandle(h -> h.createQuery("SELECT n FROM counter").mapTo(Integer.class).one());
        assertEquals(2, total);
    }

    /** The state a thread settles in once it can go no further (it never finishes while the first holds on). */
    private static Thread.State awaitBlocked(Thread thread) throws InterruptedException {
        Thread.State state = thread.getState();
        for (int i = 0; i < 100 && state != Thread.State.WAITING; i++) {
            Thread.sleep(20);
            state = thread.getState();
        }
        return state;
    }

    private static int version(String path) {
        String file = path.substring(path.lastIndexOf('/') + 1);
        return Integer.parseInt(file.substring(1, file.indexOf("__")));
    }
}
