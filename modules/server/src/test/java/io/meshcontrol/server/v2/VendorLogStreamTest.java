package io.meshcontrol.server.v2;

import static io.meshcontrol.server.v2.VendorCalls.ok;
import static io.meshcontrol.server.v2.VendorCalls.refused;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.core.testing.LoopbackHttpServer;
import io.meshcontrol.server.testing.TestServer;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * {@code /api/v2/tailnet/-/logging}: the configuration stream as the Terraform provider reads and writes it, the
 * refusals (object storage by name, the network log type with 404), and the running server delivering the audit log
 * to a receiver on loopback ({@code egress.allow_loopback_targets}, the documented test seam).
 */
class VendorLogStreamTest {

    private static final String STREAM = "/tailnet/-/logging/configuration/stream";

    @TempDir
    Path folder;
    TestServer server;
    VendorCalls api;
    final LoopbackHttpServer receiver = new LoopbackHttpServer();

    @BeforeEach
    void start() {
        server = TestServer.in(folder).set("egress.allow_loopback_targets", "true").start();
        api = VendorCalls.allAccess(server);
        receiver.answer("/ingest", new LoopbackHttpServer.Answer(200, Map.of(), new byte[0]));
    }

    @AfterEach
    void stop() {
        server.close();
        receiver.close();
    }

    @Test
    void theStreamReadsBackAsPutWithoutItsToken() {
        refused(api.get(STREAM), 404, "no log stream");
        ok(api.put(STREAM, "{\"destinationType\":\"splunk\",\"url\":\"https://splunk.example:8088/services/collector"
                + "/event\",\"user\":\"user\",\"token\":\"hec-token\",\"uploadPeriodMinutes\":5,"
                + "\"compressionFormat\":\"none\"}"));
        JsonNode read = ok(api.get(STREAM));
        assertEquals("configuration", read.path("logType").asString());
        assertEquals("splunk", read.path("destinationType").asString());
        assertEquals("https://splunk.example:8088/services/collector/event", read.path("url").asString());
        assertEquals("user", read.path("user").asString());
        assertEquals(5, read.path("uploadPeriodMinutes").asInt());
        assertEquals("none", read.path("compressionFormat").asString());
        assertFalse(read.has("token"), "the token is write-only");

        JsonNode status = ok(api.get(STREAM + "/status"));
        assertEquals(0, status.path("numFailedRequests").asInt());
        assertTrue(status.has("numEntriesSent") && status.has("lastActivity"));

        ok(api.delete(STREAM));
        refused(api.get(STREAM), 404, "no log stream");
        refused(api.delete(STREAM), 404, "no log stream");
    }

    @Test
    void objectStorageAndTheNetworkLogTypeAreRefused() {
        refused(api.put(STREAM, "{\"destinationType\":\"s3\",\"s3Bucket\":\"b\",\"s3Region\":\"eu-west-1\","
                + "\"s3AuthenticationType\":\"rolearn\",\"s3RoleArn\":\"arn:aws:iam::1:role/r\"}"), 400, "\"s3\"");
        refused(api.put(STREAM, "{\"destinationType\":\"gcs\",\"gcsBucket\":\"b\"}"), 400, "object storage");
        refused(api.put(STREAM, "{\"destinationType\":\"panther\",\"url\":\"https://p.example\"}"), 400, "panther");
        refused(api.put(STREAM, "{\"destinationType\":\"http\"}"), 400, "url");
        String network = "/tailnet/-/logging/network/stream";
        refused(api.put(network, "{\"destinationType\":\"http\",\"url\":\"https://x.example\"}"), 404, "network");
        refused(api.get(network), 404, "network");
        refused(api.delete(network), 404, "network");
        refused(api.get("/tailnet/-/logging/other/stream"), 404, "configuration");
        refused(VendorCalls.scoped(server, "dns").get(STREAM), 403, "log_streaming:read");
    }

    /** Issue 33: an empty list said that nothing happened; the server has no flow logs at all, and says why. */
    @Test
    void networkFlowLogsAre501SayingTheyAreNotCollected() {
        String start = Instant.parse("2026-01-01T00:00:00Z").toString();
        refused(api.get("/tailnet/-/logging/network?start=" + start + "&end=" + start), 501,
                "network flow logs are not collected by this server: Tailscale clients upload them only to the "
                        + "vendor's log service");
        refused(api.get("/tailnet/-/logging/network?start=yesterday"), 400, "start");
        refused(VendorCalls.scoped(server, "dns").get("/tailnet/-/logging/network"), 403, "logs:network:read");
    }

    @Test
    void theRunningServerStreamsTheAuditLog() throws InterruptedException {
        ok(api.put(STREAM, "{\"destinationType\":\"http\",\"url\":\"" + receiver.url("/ingest")
                + "\",\"token\":\"t0ken\"}"));
        VendorCalls.createUser(server, "odin", "odin@example.com");
        StringBuilder delivered = new StringBuilder();
        Instant giveUp = Instant.now().plus(Duration.ofSeconds(60));
        while (!delivered.toString().contains("user.create") && Instant.now().isBefore(giveUp)) {
            Thread.sleep(100); // the sender polls once a second on its own thread
            delivered.setLength(0);
            receiver.requests.forEach(r -> delivered.append(r.body()));
        }
        assertTrue(delivered.toString().contains("logstream.create"), delivered.toString());
        assertTrue(delivered.toString().contains("user.create"), delivered.toString());
        assertEquals("Bearer t0ken", receiver.requests.getFirst().headers().get("authorization"));
    }
}
