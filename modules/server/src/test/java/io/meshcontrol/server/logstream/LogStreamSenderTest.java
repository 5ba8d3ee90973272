package io.meshcontrol.server.logstream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.core.MeshException;
import io.meshcontrol.core.address.EgressGuard;
import io.meshcontrol.core.model.LogStream;
import io.meshcontrol.core.model.Role;
import io.meshcontrol.core.state.LogStreams;
import io.meshcontrol.core.state.Network;
import io.meshcontrol.core.testing.LoopbackHttpServer;
import io.meshcontrol.core.testing.TestNetwork;
import io.meshcontrol.notify.logstream.LogStreamSender;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The audit log's sender against a real HTTP receiver on loopback, driven by hand ({@link LogStreamSender#sendDue})
 * with a movable clock: each destination's body shape and authentication, the retry schedule, the cursor that
 * survives a restart, redirects, and the egress check on the resolved address.
 */
class LogStreamSenderTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final EgressGuard LOOPBACK_ALLOWED = new EgressGuard(false, true);

    @TempDir
    Path folder;
    TestNetwork net;
    LoopbackHttpServer receiver;
    private int seen;

    @BeforeEach
    void setUp() {
        net = new TestNetwork(folder);
        receiver = new LoopbackHttpServer();
        answer(200);
    }

    /** What the destination answers from now on. */
    private void answer(int status) {
        receiver.answer("/ingest", new LoopbackHttpServer.Answer(status, status / 100 == 3
                ? Map.of("Location", receiver.url("/elsewhere")) : Map.of(), new byte[0]));
    }

    @AfterEach
    void tearDown() {
        receiver.close();
    }

    private void stream(Network network, String destination, String url) {
        network.logStreams().set(net.admin, new LogStream(LogStreams.CONFIGURATION, destination, url, "ops",
                "secret-token", 0, "none", null));
    }

    private LogStreamSender sender(Network network) {
        return new LogStreamSender(network.logStreams(), LOOPBACK_ALLOWED, InetAddress::getAllByName, net.clock);
    }

    /** The next request the destination got (requests are recorded before they are answered). */
    private LoopbackHttpServer.Request next() {
        assertTrue(receiver.requests.size() > seen, "the receiver got a request");
        return receiver.requests.get(seen++);
    }

    private boolean nothingMore() {
        return receiver.requests.size() == seen;
    }

    private static String basic(String user, String password) {
        return "Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
    }

    @ParameterizedTest
    @ValueSource(strings = {"http", "splunk", "elastic", "datadog", "axiom", "loki"})
    void eachDestinationGetsTheBodyAndAuthenticationItIngests(String destination) {
        stream(net.network, destination, receiver.url("/ingest"));
        net.user("odin", Role.ADMIN);

        assertEquals(2, sender(net.network).sendDue(), "the stream's own creation and the new user");
        LoopbackHttpServer.Request request = next();
        assertEquals("POST", request.method());
        assertEquals("/ingest", request.target());
        JsonNode userCreated = switch (destination) {
            case "http" -> {
                assertEquals("Bearer secret-token", request.headers().get("authorization"));
                assertEquals("application/json", request.headers().get("content-type"));
                JsonNode array = JSON.readTree(request.body());
                assertEquals(2, array.size());
                assertEquals("logstream.create", array.get(0).path("action").asString());
                yield array.get(1);
            }
            case "splunk" -> {
                assertEquals("Splunk secret-token", request.headers().get("authorization"));
                List<String> lines = request.body().lines().toList();
                assertEquals(2, lines.size(), "one HEC event a line");
                JsonNode event = JSON.readTree(lines.get(1));
                assertTrue(event.path("time").isNumber(), "epoch seconds");
                assertEquals("_json", event.path("sourcetype").asString());
                yield event.path("event");
            }
            case "elastic" -> {
                assertEquals(basic("ops", "secret-token"), request.headers().get("authorization"));
                assertEquals("application/x-ndjson", request.headers().get("content-type"));
                List<String> lines = request.body().lines().toList();
                assertEquals(4, lines.size(), "an action line before each document");
                assertEquals("{\"create\":{}}", lines.get(2));
                JsonNode document = JSON.readTree(lines.get(3));
                assertEquals("2026-01-01T00:00:00Z", document.path("@timestamp").asString());
                yield document;
            }
            case "datadog" -> {
                assertEquals("secret-token", request.headers().get("dd-api-key"));
                JsonNode log = JSON.readTree(request.body()).get(1);
                assertEquals("meshcontrol", log.path("ddsource").asString());
                assertEquals("local-admin user.create " + log.path("audit").path("target").asString(),
                        log.path("message").asString());
                yield log.path("audit");
            }
            case "axiom" -> {
                assertEquals("Bearer secret-token", request.headers().get("authorization"));
                JsonNode event = JSON.readTree(request.body()).get(1);
                assertEquals("2026-01-01T00:00:00Z", event.path("_time").asString());
                yield event;
            }
            case "loki" -> {
                assertEquals(basic("ops", "secret-token"), request.headers().get("authorization"));
                JsonNode stream = JSON.readTree(request.body()).path("streams").get(0);
                assertEquals("configuration", stream.path("stream").path("log_type").asString());
                JsonNode value = stream.path("values").get(1);
                assertEquals("1767225600000000000", value.get(0).asString(), "nanoseconds since the epoch, as text");
                yield JSON.readTree(value.get(1).asString());
            }
            default -> throw new AssertionError(destination);
        };
        assertEquals("user.create", userCreated.path("action").asString());
        assertEquals("local-admin", userCreated.path("actor").asString());
        assertEquals("odin", userCreated.path("details").path("name").asString());
        assertTrue(userCreated.path("id").asLong() > 0);

        assertEquals(0, sender(net.network).sendDue(), "nothing is sent twice");
        assertTrue(nothingMore());
    }

    @Test
    void aFailedBatchIsRetriedAfter2Then10Then30SecondsAndNothingIsLost() {
        stream(net.network, "http", receiver.url("/ingest"));
        answer(500);
        LogStreamSender sender = sender(net.network);

        assertEquals(0, sender.sendDue());
        next();
        assertTrue(net.network.logStreams().status(net.admin, "configuration").lastError().contains("500"));
        for (Duration wait : List.of(Duration.ofSeconds(2), Duration.ofSeconds(10), Duration.ofSeconds(30),
                Duration.ofSeconds(30))) {
            net.clock.advance(wait.minusMillis(1));
            assertEquals(0, sender.sendDue());
            assertTrue(nothingMore(), "no attempt before " + wait + " passed");
            net.clock.advance(Duration.ofMillis(1));
            if (wait.equals(Duration.ofSeconds(30)) && receiver.requests.size() == 4) {
                answer(200); // the fifth attempt finds the destination back
            }
            sender.sendDue();
            next();
        }
        LogStream.Status status = net.network.logStreams().status(net.admin, "configuration");
        assertEquals(5, status.requests());
        assertEquals(4, status.failedRequests());
        assertEquals(1, status.entriesSent(), "the batch went through in the end");
        assertEquals("", status.lastError());
    }

    @Test
    void deliveryResumesAtTheCursorAfterARestart() {
        stream(net.network, "http", receiver.url("/ingest"));
        assertEquals(1, sender(net.network).sendDue());
        next();
        net.user("odin", Role.MEMBER);
        answer(500);
        assertEquals(0, sender(net.network).sendDue(), "the destination is down");
        next();
        answer(200);

        Network restarted = net.reopened(folder);
        net.user("thor", Role.MEMBER);
        assertEquals(2, sender(restarted).sendDue(), "what was not taken, and what came since");
        JsonNode batch = JSON.readTree(next().body());
        assertEquals(List.of("user.create", "user.create"), List.of(batch.get(0).path("action").asString(),
                batch.get(1).path("action").asString()));
        assertEquals("odin", batch.get(0).path("details").path("name").asString());
    }

    @Test
    void aRedirectIsNotFollowed() {
        stream(net.network, "http", receiver.url("/ingest"));
        answer(307);
        assertEquals(0, sender(net.network).sendDue());
        assertEquals("/ingest", next().target());
        assertTrue(nothingMore(), "the Location was not asked");
        assertTrue(net.network.logStreams().status(net.admin, "configuration").lastError().contains("redirect"));
    }

    @Test
    void aNameThatResolvesToARefusedAddressIsNotContacted() {
        stream(net.network, "http", "http://logs.example:" + receiver.port() + "/ingest");
        LogStreamSender sender = new LogStreamSender(net.network.logStreams(), EgressGuard.DEFAULT,
                host -> new InetAddress[] {InetAddress.getByAddress(host, new byte[] {127, 0, 0, 1})}, net.clock);
        assertEquals(0, sender.sendDue());
        assertTrue(nothingMore());
        assertTrue(net.network.logStreams().status(net.admin, "configuration").lastError()
                .contains("loopback address 127.0.0.1"));
    }

    @Test
    void theConnectionGoesToTheAddressThatWasChecked() {
        // A rebinding name: the checked answer first, then a refused one. A second lookup at connect time would get
        // the refused address; the sender makes none.
        stream(net.network, "http", "http://rebind.example:" + receiver.port() + "/ingest");
        AtomicInteger lookups = new AtomicInteger();
        LogStreamSender sender = new LogStreamSender(net.network.logStreams(), LOOPBACK_ALLOWED, host -> {
            if (lookups.getAndIncrement() > 0) {
                throw new UnknownHostException("a second lookup of " + host);
            }
            return new InetAddress[] {InetAddress.getByAddress(host, new byte[] {127, 0, 0, 1})};
        }, net.clock);
        assertEquals(1, sender.sendDue());
        assertEquals(1, lookups.get());
        assertEquals("rebind.example:" + receiver.port(), next().headers().get("host"));
    }

    @Test
    void objectStorageAndNetworkLogsAreRefused() {
        for (String type : List.of("s3", "gcs")) {
            MeshException e = assertThrows(MeshException.class, () -> stream(net.network, type, ""));
            assertEquals(MeshException.Reason.INVALID, e.reason());
            assertTrue(e.getMessage().contains("\"" + type + "\"") && e.getMessage().contains("object storage"),
                    e.getMessage());
        }
        MeshException network = assertThrows(MeshException.class, () -> net.network.logStreams().set(net.admin,
                new LogStream("network", "http", receiver.url("/"), "", "", 0, "", null)));
        assertEquals(MeshException.Reason.NOT_FOUND, network.reason());
        assertFalse(net.network.auditLog().recent(null, 10).stream().anyMatch(e -> e.action().startsWith("log")),
                "a refusal writes nothing");
    }
}
