package io.meshcontrol.server.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.core.auth.Caller;
import io.meshcontrol.core.model.Node;
import io.meshcontrol.core.model.PendingDelivery;
import io.meshcontrol.core.model.Role;
import io.meshcontrol.core.state.Users;
import io.meshcontrol.core.state.Webhooks;
import io.meshcontrol.core.testing.Await;
import io.meshcontrol.core.testing.AuthKey;
import io.meshcontrol.core.testing.Machine;
import io.meshcontrol.core.testing.RefusingPort;
import io.meshcontrol.server.testing.TestServer;
import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code GET /api/v1/events}: the change feed as server-sent events, each naming only what its reader may read; and
 * API answers gzipped for clients that accept it.
 */
class EventStreamTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Caller ADMIN = Caller.localAdmin();

    @TempDir
    Path folder;
    TestServer server;
    final HttpClient http = HttpClient.newHttpClient();
    final List<InputStream> open = new ArrayList<>();

    @BeforeEach
    void start() {
        server = TestServer.in(folder).set("egress.allow_loopback_targets", "true").start();
        for (String name : List.of("odin", "thor")) {
            server.network.users().create(ADMIN, new Users.NewUser(name, name, name + "@example.com", Role.MEMBER));
        }
    }

    @AfterEach
    void stop() throws IOException {
        for (InputStream stream : open) {
            stream.close();
        }
        server.close();
    }

    /** Opens a stream for {@code token}; its events arrive on the queue as "name data" lines. */
    private BlockingQueue<String> follow(String token) throws Exception {
        HttpResponse<InputStream> response = http.send(HttpRequest.newBuilder(server.url().resolve("/api/v1/events"))
                .header("Authorization", "Bearer " + token).build(), HttpResponse.BodyHandlers.ofInputStream());
        assertEquals(200, response.statusCode());
        assertTrue(response.headers().firstValue("Content-Type").orElse("").startsWith("text/event-stream"));
        open.add(response.body());
        BlockingQueue<String> events = new ArrayBlockingQueue<>(100);
        Thread.ofVirtual().start(() -> {
            try (BufferedReader lines = new BufferedReader(new InputStreamReader(response.body(),
                    StandardCharsets.UTF_8))) {
                String name = "message";
                for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                    if (line.startsWith("event: ")) {
                        name = line.substring("event: ".length());
                    } else if (line.startsWith("data: ")) {
                        events.add(name + " " + line.substring("data: ".length()));
                        name = "message";
                    }
                }
            } catch (IOException e) {
                // closed by the test
            }
        });
        assertEquals("ready {}", events.poll(10, TimeUnit.SECONDS));
        return events;
    }

    private static JsonNode nextChange(BlockingQueue<String> events) throws InterruptedException {
        String event = events.poll(10, TimeUnit.SECONDS);
        assertTrue(event != null && event.startsWith("change "), "a change event, got " + event);
        return JSON.readTree(event.substring("change ".length()));
    }

    private static List<Long> ids(JsonNode list) {
        List<Long> ids = new ArrayList<>();
        list.forEach(id -> ids.add(Long.parseLong(id.asString())));
        return ids;
    }

    @Test
    void anAdministratorHearsOfEachChangeWithWhatChangedAndItsArea() throws Exception {
        BlockingQueue<String> events = follow(server.localToken());
        Node laptop = Machine.named("laptop").join(server.network,
                AuthKey.forUser("odin").reusable().create(server.network));
        JsonNode joined = nextChange(events);
        assertTrue(ids(joined.get("nodes")).contains(laptop.id()), joined.toString());

        var renamed = server.request("POST", "/api/v1/node/" + laptop.id() + "/rename", server.localToken(),
                "{\"name\":\"desk\"}");
        assertEquals(200, renamed.statusCode(), renamed.body());
        JsonNode change = nextChange(events);
        assertEquals(List.of(laptop.id()), ids(change.get("nodes")));
        assertTrue(change.get("areas").toString().contains("\"node\""), change.toString());
        assertFalse(change.get("policy").asBoolean());
    }

    /** A finished delivery is a change of the webhooks' area: pages showing the history read it then, not on a timer. */
    @Test
    void aFinishedWebhookDeliveryIsAChangeOfTheWebhookArea() throws Exception {
        var webhooks = server.network.webhooks();
        String id = webhooks.create(ADMIN, new Webhooks.Fields(RefusingPort.url("/hook"), "", List.of()))
                .endpoint().id();
        BlockingQueue<String> events = follow(server.localToken()); // after the creation's own change
        webhooks.test(ADMIN, id); // no change of its own: only its delivery is
        // Finished here; the server's own worker may hold the row's claim between a read and the finish (which then
        // changes nothing), so read and finish again until it is in the history: once.
        Await.until("the delivery in the history", () -> {
            for (PendingDelivery pending : webhooks.pending(id)) {
                webhooks.finish(pending, 503, "unavailable", 1, Duration.ofMillis(3));
            }
            return webhooks.pending(id).isEmpty();
        });
        JsonNode change = nextChange(events);
        assertEquals("[\"webhook\"]", change.get("areas").toString(), change.toString());
        assertEquals(1, webhooks.deliveries(ADMIN, id).size());
    }

    @Test
    void aMemberHearsOfTheirOwnMachinesOnlyAndOfNoUsers() throws Exception {
        String key = AuthKey.forUser("odin").reusable().create(server.network);
        String memberToken = server.network.apiKeys().create(ADMIN, "odin", List.of(), "member", null).secret();
        BlockingQueue<String> events = follow(memberToken);

        Node own = Machine.named("own").join(server.network, key);
        Node other = Machine.named("other").join(server.network,
                AuthKey.forUser("thor").reusable().create(server.network));
        server.network.users().create(ADMIN, new Users.NewUser("loki", "Loki", "loki@example.com", Role.MEMBER));

        List<Long> nodes = new ArrayList<>();
        List<Long> users = new ArrayList<>();
        for (JsonNode change = nextChange(events); ; change = nextChange(events)) {
            nodes.addAll(ids(change.get("nodes")));
            users.addAll(ids(change.get("users")));
            if (change.get("areas").toString().contains("\"user\"")) {
                break; // the last change made: loki's creation
            }
        }
        assertTrue(nodes.contains(own.id()), nodes.toString());
        assertFalse(nodes.contains(other.id()), "another user's machine is not named: " + nodes);
        assertEquals(List.of(), users, "no users:read, no user ids");
    }

    @Test
    void largeAnswersAreGzippedForClientsThatAcceptItAndSmallOnesAreNot() throws Exception {
        String key = AuthKey.forUser("odin").reusable().create(server.network);
        for (int i = 0; i < 12; i++) {
            Machine.named("machine-" + i).join(server.network, key);
        }
        HttpRequest.Builder list = HttpRequest.newBuilder(server.url().resolve("/api/v1/node"))
                .header("Authorization", "Bearer " + server.localToken());
        HttpResponse<byte[]> plain = http.send(list.build(), HttpResponse.BodyHandlers.ofByteArray());
        HttpResponse<byte[]> packed = http.send(list.header("Accept-Encoding", "br, gzip;q=0.8").build(),
                HttpResponse.BodyHandlers.ofByteArray());

        assertTrue(plain.body().length > 1024, "big enough to gain: " + plain.body().length);
        assertTrue(plain.headers().firstValue("Content-Encoding").isEmpty());
        assertEquals("gzip", packed.headers().firstValue("Content-Encoding").orElse(""));
        assertTrue(packed.body().length < plain.body().length / 2, packed.body().length + " of " + plain.body().length);
        byte[] unpacked = new GZIPInputStream(new ByteArrayInputStream(packed.body())).readAllBytes();
        assertEquals(JSON.readTree(plain.body()), JSON.readTree(unpacked));

        HttpResponse<byte[]> small = http.send(HttpRequest.newBuilder(server.url().resolve("/version"))
                .header("Accept-Encoding", "gzip").build(), HttpResponse.BodyHandlers.ofByteArray());
        assertTrue(small.headers().firstValue("Content-Encoding").isEmpty(), "a small answer goes as it is");
        HttpResponse<byte[]> refused = http.send(list.setHeader("Accept-Encoding", "gzip;q=0").build(),
                HttpResponse.BodyHandlers.ofByteArray());
        assertTrue(refused.headers().firstValue("Content-Encoding").isEmpty(), "gzip;q=0 refuses gzip");
    }

}
