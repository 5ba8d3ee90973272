package io.meshcontrol.server;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.meshcontrol.api.PreAuthKeyRequest;
import io.meshcontrol.api.UserRequest;
import io.meshcontrol.core.model.Node;
import io.meshcontrol.core.netmap.MapSession;
import io.meshcontrol.core.netmap.frames.MapFrames;
import io.meshcontrol.core.testing.Machine;
import io.meshcontrol.core.testing.MapStreamCapture;
import io.meshcontrol.core.testing.PostgresCluster;
import io.meshcontrol.core.wire.MapResponse;
import io.meshcontrol.server.testing.TestServer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two server instances on one PostgreSQL database: a machine streaming its map from instance A gets the changes made
 * through instance B's API, as deltas. Prints the propagation time (from B's answer to A's stream) over many changes;
 * the figure is reported, not asserted (docs/high-availability.md).
 */
class InstancesInStepTest {

    private static final int CHANGES = 100;

    @TempDir
    Path folder;

    @Test
    void aMachineStreamingFromOneInstanceGetsAChangeMadeThroughTheOther() throws Exception {
        Assumptions.assumeTrue(PostgresCluster.installed(), "PostgreSQL is not installed (run-tests installs it)");
        Map<String, String> database = PostgresCluster.shared().newEmptyDatabaseConfig();
        TestServer.Builder first = TestServer.in(folder.resolve("a"));
        database.forEach(first::set);
        try (TestServer a = first.start()) {
            TestServer.Builder second = TestServer.in(folder.resolve("b"));
            database.forEach(second::set);
            try (TestServer b = second.start()) {
                a.adminClient().createUser(new UserRequest("alice", null, null, null));
                String key = a.adminClient().createPreAuthKey(new PreAuthKeyRequest("alice", null, true, false, false,
                        "", null)).secret();
                Node node = Machine.named("laptop").join(a.network, key);
                MapStreamCapture stream = new MapStreamCapture();
                MapSession session = a.server.mapSessions().open(node.id(), 142, MapFrames.zstd(1), stream.sink());
                Thread streaming = Thread.ofVirtual().start(() -> {
                    try {
                        session.run(System.nanoTime());
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                });
                stream.await(messages -> !messages.isEmpty());

                // A peer joins through B, and B's API renames it: A's stream hears of both.
                Node peer = Machine.named("desktop").join(b.network, key);
                assertEquals(200, b.request("POST", "/api/v1/node/" + peer.id() + "/rename", b.localToken(),
                        "{\"name\": \"workstation\"}").statusCode());
                stream.await(messages -> messages.stream().anyMatch(m -> m.peersChanged() != null
                        && m.peersChanged().stream().anyMatch(p -> p.name().startsWith("workstation."))));

                List<Long> micros = new ArrayList<>();
                for (int i = 0; i < CHANGES; i++) {
                    String nameserver = "10.1." + i + ".53";
                    int seen = stream.messages().size();
                    assertEquals(200, b.request("PUT", "/api/v1/dns", b.localToken(),
                            "{\"nameservers\": [{\"address\": \"" + nameserver + "\"}]}").statusCode());
                    long answered = System.nanoTime();
                    awaitDns(stream, seen, nameserver);
                    micros.add((System.nanoTime() - answered) / 1000);
                }
                Collections.sort(micros);
                System.out.printf("instances in step: %d DNS changes through instance B reached a map stream on"
                        + " instance A in p50 %.1f ms, p99 %.1f ms, max %.1f ms (from B's answer)%n", CHANGES,
                        micros.get(CHANGES / 2) / 1000.0, micros.get(CHANGES * 99 / 100 - 1) / 1000.0,
                        micros.getLast() / 1000.0);
                a.server.mapSessions().close();
                streaming.join(Duration.ofSeconds(10));
            }
        }
    }

    @Test
    void derpSettingsSavedThroughOneInstanceReachTheOthersMapStreams() throws Exception {
        Assumptions.assumeTrue(PostgresCluster.installed(), "PostgreSQL is not installed (run-tests installs it)");
        Map<String, String> database = PostgresCluster.shared().newEmptyDatabaseConfig();
        TestServer.Builder first = TestServer.in(folder.resolve("a")).relay(true);
        database.forEach(first::set);
        try (TestServer a = first.start()) {
            TestServer.Builder second = TestServer.in(folder.resolve("b")).relay(true);
            database.forEach(second::set);
            try (TestServer b = second.start()) {
                a.adminClient().createUser(new UserRequest("alice", null, null, null));
                String key = a.adminClient().createPreAuthKey(new PreAuthKeyRequest("alice", null, true, false, false,
                        "", null)).secret();
                Node node = Machine.named("laptop").join(a.network, key);
                MapStreamCapture stream = new MapStreamCapture();
                MapSession session = a.server.mapSessions().open(node.id(), 142, MapFrames.zstd(1), stream.sink());
                Thread streaming = Thread.ofVirtual().start(() -> {
                    try {
                        session.run(System.nanoTime());
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                });
                stream.await(messages -> !messages.isEmpty());
                assertEquals(200, b.request("PUT", "/api/v1/derp", b.localToken(),
                        "{\"relays\":[{\"regionId\":900,\"code\":\"home\",\"host\":\"relay.example.com\"}]}")
                        .statusCode());
                stream.await(messages -> messages.getLast().derpMap() != null
                        && messages.getLast().derpMap().regions().containsKey(900));
                a.server.mapSessions().close();
                streaming.join(Duration.ofSeconds(10));
            }
        }
    }

    /** Waits until a message after the first {@code seen} carries {@code nameserver} in its DNS configuration. */
    private static void awaitDns(MapStreamCapture stream, int seen, String nameserver) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (System.nanoTime() < deadline) {
            List<MapResponse> messages = stream.messages();
            for (MapResponse message : messages.subList(Math.min(seen, messages.size()), messages.size())) {
                if (message.dnsConfig() != null && String.valueOf(message.dnsConfig()).contains(nameserver)) {
                    return;
                }
            }
            Thread.sleep(1);
        }
        throw new AssertionError("the stream on instance A did not get nameserver " + nameserver + " within 20 s");
    }
}
