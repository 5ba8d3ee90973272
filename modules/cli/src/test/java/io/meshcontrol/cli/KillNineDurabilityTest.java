package io.meshcontrol.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.api.ApiKeyRequest;
import io.meshcontrol.api.ApiKeyView;
import io.meshcontrol.api.MeshClient;
import io.meshcontrol.api.PreAuthKeyRequest;
import io.meshcontrol.api.PreAuthKeyView;
import io.meshcontrol.api.SettingsView;
import io.meshcontrol.api.UserRequest;
import io.meshcontrol.api.UserView;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.IntFunction;
import java.util.function.IntUnaryOperator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every write the API acknowledged survives SIGKILL of the server process, and nothing is half-written. The server
 * runs as a separate process started with {@code svc serve}. In each of several rounds, one thread per kind of
 * write (users, API keys, pre-auth keys, the policy, the runtime settings, a user's profile) writes as fast as the
 * server answers until the process is killed at a random moment; after the restart every acknowledged write must be
 * there, exactly as written, and nothing else but the one write each thread had in flight when the server died.
 * The rounds' servers differ in {@code database.sqlite.wal_autocheckpoint}, so the guarantee is shown for several.
 */
class KillNineDurabilityTest {

    /** Rounds of writing and killing; the reliability suite's long mode raises it (docs/development.md). */
    private static final int ROUNDS = Integer.getInteger("svc.durability.rounds", 3);

    @TempDir
    Path folder;
    private final Random random = new Random();
    private final long seed = random.nextLong();
    private final List<String> faults = Collections.synchronizedList(new ArrayList<>());
    /** The server process of the current round. */
    private Process server;

    /** A failed round leaves its server running: end it, so that no process outlives the test. */
    @AfterEach
    void killServer() throws InterruptedException {
        if (server != null && server.isAlive()) {
            server.destroyForcibly();
            server.waitFor(30, TimeUnit.SECONDS);
        }
    }

    /**
     * One kind of write, made again and again by its own thread; each write has a number, and what it writes is a
     * function of that number. {@code acknowledged} are the writes the server answered; {@code unacknowledged} those
     * in flight when it died (present or not, but whole).
     */
    private abstract static class Writer {

        final String kind;
        final Set<Integer> acknowledged = new TreeSet<>();
        final Set<Integer> unacknowledged = new TreeSet<>();
        int next;
        /** The number of the first write of the current round. */
        int roundStart;

        Writer(String kind) {
            this.kind = kind;
        }

        abstract void write(MeshClient client, int n);

        /** What is wrong with what a restarted server holds, one line each. */
        abstract List<String> check(MeshClient client);

        /** For a writer whose writes replace each other: whether {@code n} may be the one found. */
        boolean mayBeLast(int n) {
            int last = acknowledged.isEmpty() ? -1 : Collections.max(acknowledged);
            return n == last || unacknowledged.contains(n) && n > last;
        }

        /** For a writer whose writes accumulate: the faults of finding exactly {@code found}. */
        List<String> compare(Set<Integer> found) {
            List<String> faults = new ArrayList<>();
            Set<Integer> lost = new TreeSet<>(acknowledged);
            lost.removeAll(found);
            if (!lost.isEmpty()) {
                faults.add(kind + ": acknowledged but gone after kill -9: " + lost);
            }
            Set<Integer> unexpected = new TreeSet<>(found);
            unexpected.removeAll(acknowledged);
            unexpected.removeAll(unacknowledged);
            if (!unexpected.isEmpty()) {
                faults.add(kind + ": present but never written: " + unexpected);
            }
            return faults;
        }
    }

    @Test
    void acknowledgedWritesOfConcurrentWritersSurviveKillNine() throws Exception {
        Path config = folder.resolve("config.yaml");
        Path credential = folder.resolve("data/cli.json");
        IntFunction<String> configText = round -> """
                listen_addr: 127.0.0.1:0
                metrics_listen_addr: null
                derp:
                  urls: []
                  server:
                    stun_listen_addr: 127.0.0.1:0
                    tls_listen_addr: 127.0.0.1:0
                database:
                  sqlite:
                    path: %s
                    wal_autocheckpoint: %d
                cli:
                  local_credential_path: %s
                """.formatted(folder.resolve("data/db.sqlite"), walAutocheckpoint(round), credential);
        Files.writeString(config, configText.apply(1));
        random.setSeed(seed);

        server = start(config);
        MeshClient client = ServeProcess.awaitClient(credential, server);
        String tailnetId = client.server().tailnetId();
        String holder = client.createUser(new UserRequest("holder", null, null, null)).id();
        List<Writer> writers = writers(holder);
        for (int round = 1; round <= ROUNDS; round++) {
            Map<Writer, Thread> threads = new ConcurrentHashMap<>();
            Set<Writer> stopped = ConcurrentHashMap.newKeySet();
            AtomicBoolean killed = new AtomicBoolean();
            MeshClient roundClient = client;
            for (Writer writer : writers) {
                writer.roundStart = writer.next;
                threads.put(writer, Thread.ofPlatform().name("writer-" + writer.kind).start(() -> {
                    while (true) {
                        int n = writer.next;
                        try {
                            writer.write(roundClient, n);
                        } catch (RuntimeException e) {
                            if (!killed.get()) {
                                faults.add(writer.kind + " write " + n + " failed while the server ran: " + e);
                            }
                            synchronized (writer) {
                                writer.unacknowledged.add(n);
                                writer.next++;
                            }
                            stopped.add(writer);
                            return;
                        }
                        synchronized (writer) {
                            writer.acknowledged.add(n);
                            writer.next++;
                        }
                    }
                }));
            }
            awaitOneWriteEach(writers, round);
            Thread.sleep(random.nextInt(1000)); // the kill lands anywhere in the writes that follow
            killed.set(true);
            server.destroyForcibly(); // SIGKILL: no shutdown hook, no checkpoint
            assertTrue(server.waitFor(30, TimeUnit.SECONDS), "the killed server went away");
            assertEquals(137, server.exitValue(), "killed by SIGKILL");
            for (Thread thread : threads.values()) {
                thread.join(30_000);
            }
            assertEquals(writers.size(), stopped.size(), "every writer saw the server die");

            Files.deleteIfExists(credential); // a killed server cannot remove its credential
            Files.writeString(config, configText.apply(round + 1));
            server = start(config);
            client = ServeProcess.awaitClient(credential, server);
            assertEquals(tailnetId, client.server().tailnetId(), "the network ID never changes");
            for (Writer writer : writers) {
                for (String fault : writer.check(client)) {
                    faults.add("round " + round + ": " + fault);
                }
            }
            assertEquals(List.of(), faults, "seed " + seed);
        }
        server.destroyForcibly();
        assertTrue(server.waitFor(30, TimeUnit.SECONDS));
        System.out.println("kill -9 durability, " + ROUNDS + " rounds, seed " + seed + ", acknowledged writes: "
                + writers.stream().map(writer -> writer.kind + " " + writer.acknowledged.size()).toList());
        try (Connection db = DriverManager.getConnection("jdbc:sqlite:" + folder.resolve("data/db.sqlite"));
                ResultSet result = db.createStatement().executeQuery("PRAGMA integrity_check")) {
            assertTrue(result.next());
            assertEquals("ok", result.getString(1), "the database after kill -9");
        }
    }

    /**
     * The {@code database.sqlite.wal_autocheckpoint} of the server that runs in {@code round}: each round kills a server
     * with another one, at no extra cost: SQLite's default, off (the server checkpoints on its schedule), and a
     * checkpoint after every commit.
     */
    private static int walAutocheckpoint(int round) {
        int[] values = {1000, 0, 1};
        return values[(round - 1) % values.length];
    }

    /** Waits until every writer has had a write of this round acknowledged: all of them are busy at the kill. */
    private void awaitOneWriteEach(List<Writer> writers, int round) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        for (Writer writer : writers) {
            while (!wroteIn(writer, round)) {
                assertTrue(System.nanoTime() < deadline, writer.kind + " wrote nothing in round " + round + ": " + faults);
                Thread.sleep(10);
            }
        }
    }

    private static boolean wroteIn(Writer writer, int round) {
        synchronized (writer) {
            return writer.acknowledged.stream().anyMatch(n -> n >= writer.roundStart);
        }
    }

    private Process start(Path config) throws Exception {
        return ServeProcess.start(folder, config, folder.resolve("serve-" + System.nanoTime() + ".log"));
    }

    private List<Writer> writers(String holder) {
        Map<Integer, String> apiKeySecrets = new ConcurrentHashMap<>();
        IntUnaryOperator days = n -> 1 + n % 180;
        IntFunction<String> policy = n -> "// write " + n + "\n{\"groups\": {\"group:w" + n + "\": [\"holder@\"]}}\n";
        return List.of(
                new Writer("users") {
                    @Override
                    void write(MeshClient client, int n) {
                        client.createUser(new UserRequest("user-" + n, "User " + n, "user" + n + "@example.com",
                                null));
                    }

                    @Override
                    List<String> check(MeshClient client) {
                        Set<Integer> found = new TreeSet<>();
                        List<String> faults = new ArrayList<>();
                        for (UserView user : client.users()) {
                            if (user.name().startsWith("user-")) {
                                int n = Integer.parseInt(user.name().substring(5));
                                found.add(n);
                                if (!user.displayName().equals("User " + n)
                                        || !user.email().equals("user" + n + "@example.com")) {
                                    faults.add("users: " + user + " is not as written");
                                }
                            }
                        }
                        faults.addAll(compare(found));
                        return faults;
                    }
                },
                new Writer("API keys") {
                    @Override
                    void write(MeshClient client, int n) {
                        apiKeySecrets.put(n, client.createApiKey(new ApiKeyRequest(null,
                                List.of("devices:core:read"), "key-" + n, null)).secret());
                    }

                    @Override
                    List<String> check(MeshClient client) {
                        Set<Integer> found = new TreeSet<>();
                        List<String> faults = new ArrayList<>();
                        for (ApiKeyView key : client.apiKeys()) {
                            if (key.description().startsWith("key-")) {
                                found.add(Integer.parseInt(key.description().substring(4)));
                                if (!key.scopes().equals(List.of("devices:core:read"))) {
                                    faults.add("API keys: " + key + " is not as written");
                                }
                            }
                        }
                        faults.addAll(compare(found));
                        for (int n : acknowledged.stream().sorted(Collections.reverseOrder()).limit(3).toList()) {
                            try {
                                new MeshClient(client.baseUrl(), apiKeySecrets.get(n), false, Svc.version(),
                                        warning -> { }).nodes();
                            } catch (RuntimeException e) {
                                faults.add("API keys: the secret of key-" + n + " no longer works: " + e);
                            }
                        }
                        return faults;
                    }
                },
                new Writer("pre-auth keys") {
                    @Override
                    void write(MeshClient client, int n) {
                        client.createPreAuthKey(new PreAuthKeyRequest("holder", null, true, false, false,
                                "auth-" + n, null));
                    }

                    @Override
                    List<String> check(MeshClient client) {
                        Set<Integer> found = new TreeSet<>();
                        List<String> faults = new ArrayList<>();
                        for (PreAuthKeyView key : client.preAuthKeys()) {
                            if (key.description().startsWith("auth-")) {
                                found.add(Integer.parseInt(key.description().substring(5)));
                                if (!key.reusable() || !"holder".equals(key.user()) || !key.valid()) {
                                    faults.add("pre-auth keys: " + key + " is not as written");
                                }
                            }
                        }
                        faults.addAll(compare(found));
                        return faults;
                    }
                },
                new Writer("policy") {
                    @Override
                    void write(MeshClient client, int n) {
                        client.setPolicy(policy.apply(n));
                    }

                    @Override
                    List<String> check(MeshClient client) {
                        String text = client.policy().policy();
                        for (int n = next; n >= 0; n--) {
                            if (text.equals(policy.apply(n))) {
                                return mayBeLast(n) ? List.of()
                                        : List.of("policy: write " + n + " found, acknowledged " + acknowledged);
                            }
                        }
                        return List.of("policy: found a text never written: " + text);
                    }
                },
                new Writer("settings") {
                    @Override
                    void write(MeshClient client, int n) {
                        client.updateSettings(new SettingsView(null, null, days.applyAsInt(n)));
                    }

                    @Override
                    List<String> check(MeshClient client) {
                        int found = client.settings().devicesKeyDurationDays();
                        int last = acknowledged.isEmpty() ? -1 : Collections.max(acknowledged);
                        boolean expected = last >= 0 && found == days.applyAsInt(last)
                                || unacknowledged.stream().anyMatch(n -> n > last && found == days.applyAsInt(n));
                        return expected || last < 0 ? List.of()
                                : List.of("settings: found " + found + " days, last acknowledged " + days.applyAsInt(last));
                    }

                },
                new Writer("user profile") {
                    @Override
                    void write(MeshClient client, int n) {
                        client.updateUser(holder, new UserRequest(null, "Holder " + n, "holder" + n + "@example.com",
                                null));
                    }

                    @Override
                    List<String> check(MeshClient client) {
                        UserView user = client.user("holder");
                        if (!user.displayName().startsWith("Holder ")) {
                            return List.of("user profile: " + user + " was never written");
                        }
                        int n = Integer.parseInt(user.displayName().substring(7));
                        if (!user.email().equals("holder" + n + "@example.com")) {
                            return List.of("user profile: half-written: " + user);
                        }
                        return mayBeLast(n) ? List.of()
                                : List.of("user profile: write " + n + " found, acknowledged " + acknowledged);
                    }
                });
    }
}
