package io.meshcontrol.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.api.IssuedWebhook;
import io.meshcontrol.api.MeshClient;
import io.meshcontrol.api.UserRequest;
import io.meshcontrol.api.WebhookRequest;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Every committed change's webhook event is delivered, however the server stops. The server runs as a separate
 * process ({@code svc serve}) with one endpoint subscribed to {@code userCreated} at the real receiver of
 * {@code interop/webhook-receiver}, which checks every signature. In each round several threads create users as fast
 * as the server answers until the server is killed with SIGKILL (odd rounds) or stopped with SIGTERM (even rounds) at
 * a random moment; after the restart the receiver must get the event of every user whose creation was acknowledged,
 * and of no user that was never asked for.
 */
class KillNineWebhookDeliveryTest {

    /** Rounds of writing and stopping; the reliability suite's long mode raises it (docs/development.md). */
    private static final int ROUNDS = Integer.getInteger("svc.durability.rounds", 3);
    private static final JsonMapper JSON = JsonMapper.builder().build();
    /** Threads creating users at once: the server is busy writing when it stops. */
    private static final int WRITERS = 6;

    @TempDir
    Path folder;
    private final Random random = new Random();
    private final long seed = random.nextLong();
    private final List<String> faults = Collections.synchronizedList(new ArrayList<>());
    /** The users whose {@code userCreated} the receiver verified and printed. */
    private final Set<String> delivered = ConcurrentHashMap.newKeySet();
    private Process server;
    private Process receiver;

    /** A failed round leaves its processes running: end them, so that none outlives the test. */
    @AfterEach
    void stopProcesses() throws InterruptedException {
        for (Process process : new Process[] {server, receiver}) {
            if (process != null && process.isAlive()) {
                process.destroyForcibly();
                process.waitFor(30, TimeUnit.SECONDS);
            }
        }
    }

    @Test
    void everyAcknowledgedChangesEventIsDeliveredAfterKillNineOrAStop() throws Exception {
        random.setSeed(seed);
        int port = startReceiver();
        Path config = folder.resolve("config.yaml");
        Path credential = folder.resolve("data/cli.json");
        Files.writeString(config, """
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
                cli:
                  local_credential_path: %s
                egress:
                  allow_loopback_targets: true
                """.formatted(folder.resolve("data/db.sqlite"), credential));
        server = start(config);
        MeshClient client = ServeProcess.awaitClient(credential, server);
        IssuedWebhook hook = client.createWebhook(new WebhookRequest("http://127.0.0.1:" + port + "/events", null,
                List.of("userCreated")));
        Writer secret = new java.io.OutputStreamWriter(receiver.getOutputStream(), StandardCharsets.UTF_8);
        secret.write(hook.secret() + "\n");
        secret.flush();

        Set<String> acknowledged = ConcurrentHashMap.newKeySet();
        Set<String> unacknowledged = ConcurrentHashMap.newKeySet();
        for (int round = 1; round <= ROUNDS; round++) {
            boolean kill = round % 2 == 1;
            AtomicBoolean stopping = new AtomicBoolean();
            MeshClient roundClient = client;
            int roundNumber = round;
            int before = acknowledged.size();
            List<Thread> writers = new ArrayList<>();
            for (int w = 0; w < WRITERS; w++) {
                String prefix = "user-" + round + "-" + w + "-";
                writers.add(Thread.ofPlatform().name("user-writer-" + w).start(() -> {
                    for (int n = 0; ; n++) {
                        String name = prefix + n;
                        try {
                            roundClient.createUser(new UserRequest(name, null, null, null));
                        } catch (RuntimeException e) {
                            if (!stopping.get()) {
                                faults.add("creating " + name + " failed while the server ran: " + e);
                            }
                            unacknowledged.add(name);
                            return;
                        }
                        acknowledged.add(name);
                    }
                }));
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (acknowledged.size() == before) {
                assertTrue(System.nanoTime() < deadline, "no user was created in round " + roundNumber + ": "
                        + faults);
                Thread.sleep(10);
            }
            Thread.sleep(random.nextInt(1000)); // the stop lands anywhere in the writes that follow
            stopping.set(true);
            if (kill) {
                server.destroyForcibly(); // SIGKILL: no shutdown hook
            } else {
                server.destroy(); // SIGTERM: the graceful stop
            }
            assertTrue(server.waitFor(60, TimeUnit.SECONDS), "the server went away");
            if (kill) {
                assertEquals(137, server.exitValue(), "killed by SIGKILL");
            }
            for (Thread writer : writers) {
                writer.join(60_000);
            }

            Files.deleteIfExists(credential); // a killed server cannot remove its credential
            server = start(config);
            client = ServeProcess.awaitClient(credential, server);
            awaitDelivered(acknowledged, round, kill);
            Set<String> unexpected = new TreeSet<>(delivered);
            unexpected.removeAll(acknowledged);
            unexpected.removeAll(unacknowledged);
            assertEquals(Set.of(), unexpected, "events of users never created, seed " + seed);
            assertEquals(List.of(), faults, "seed " + seed);
        }
        System.out.println("webhook delivery across kill -9 and stops, " + ROUNDS + " rounds, seed " + seed
                + ": " + acknowledged.size() + " acknowledged users, all delivered");
    }

    /** Waits until the receiver has every acknowledged user's event; fails naming those it never got. */
    private void awaitDelivered(Set<String> acknowledged, int round, boolean kill) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        Set<String> missing = missing(acknowledged);
        while (!missing.isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(100);
            missing = missing(acknowledged);
        }
        assertEquals(Set.of(), missing, "round " + round + " (" + (kill ? "SIGKILL" : "SIGTERM")
                + "): acknowledged users whose userCreated never arrived, seed " + seed);
    }

    private Set<String> missing(Set<String> acknowledged) {
        Set<String> missing = new TreeSet<>(acknowledged);
        missing.removeAll(delivered);
        return missing;
    }

    /** Starts interop's receiver; its verified events feed {@link #delivered}. Returns its port. */
    private int startReceiver() throws Exception {
        Path script = Path.of(System.getProperty("basedir", ".")).resolve("../../interop/webhook-receiver/receiver.py")
                .normalize();
        assertTrue(Files.isRegularFile(script), "the receiver is at " + script);
        receiver = new ProcessBuilder("python3", script.toString()).redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
        BufferedReader out = new BufferedReader(new InputStreamReader(receiver.getInputStream(),
                StandardCharsets.UTF_8));
        LinkedBlockingQueue<String> listening = new LinkedBlockingQueue<>();
        Thread.ofPlatform().daemon().name("receiver-output").start(() -> out.lines().forEach(line -> {
            if (line.startsWith("listening ")) {
                listening.add(line);
                return;
            }
            JsonNode printed;
            try {
                printed = JSON.readTree(line);
            } catch (RuntimeException e) {
                faults.add("the receiver printed a line that is not one JSON object: " + line);
                return; // keep reading: one bad line must not hide every later delivery
            }
            if (!printed.get("verified").asBoolean()) {
                faults.add("the receiver refused a request's signature: " + line);
            } else if ("userCreated".equals(printed.get("event").get("type").asString())) {
                delivered.add(printed.get("event").get("data").get("user").asString());
            }
        }));
        String line = listening.poll(30, TimeUnit.SECONDS);
        assertTrue(line != null, "the receiver started");
        return Integer.parseInt(line.substring("listening ".length()));
    }

    private Process start(Path config) throws Exception {
        return ServeProcess.start(folder, config, folder.resolve("serve-" + System.nanoTime() + ".log"));
    }
}
