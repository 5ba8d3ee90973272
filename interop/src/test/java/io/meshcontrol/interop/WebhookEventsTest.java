package io.meshcontrol.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.api.IssuedWebhook;
import io.meshcontrol.api.MeshClient;
import io.meshcontrol.api.PreAuthKeyRequest;
import io.meshcontrol.api.UserRequest;
import io.meshcontrol.api.WebhookRequest;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A real {@code tailscaled} joining and leaving produces signed {@code nodeCreated} and {@code nodeDeleted} events at
 * a receiver written in Python's standard library ({@code interop/webhook-receiver/receiver.py}), which checks each
 * request's signature as docs/events.md tells receivers to.
 */
class WebhookEventsTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Duration SOON = Duration.ofSeconds(30);

    @RegisterExtension
    final TailscaleNodes nodes = new TailscaleNodes();

    @TempDir
    Path folder;

    private TestNetwork network;
    private Process receiver;

    @AfterEach
    void stop() throws Exception {
        if (receiver != null) {
            receiver.destroy();
            receiver.waitFor(10, TimeUnit.SECONDS);
        }
        if (network != null) {
            network.close();
        }
    }

    @Test
    void aJoiningAndLeavingNodeIsSignedNodeCreatedAndNodeDeleted() throws Exception {
        // The receiver is on loopback, which deliveries may reach only when allowed.
        network = TestNetwork.start(folder, nodes, Duration.ofSeconds(65),
                Map.of("egress.allow_loopback_targets", "true"));
        MeshClient admin = network.admin();
        receiver = new ProcessBuilder("python3", Path.of(System.getProperty("svc.repo.dir"),
                "interop/webhook-receiver/receiver.py").toString()).redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
        LinkedBlockingQueue<String> lines = new LinkedBlockingQueue<>();
        BufferedReader out = new BufferedReader(new InputStreamReader(receiver.getInputStream(),
                StandardCharsets.UTF_8));
        Thread.ofPlatform().daemon().start(() -> out.lines().forEach(lines::add));
        String listening = lines.poll(30, TimeUnit.SECONDS);
        assertTrue(listening != null && listening.startsWith("listening "), "the receiver started: " + listening);

        IssuedWebhook hook = admin.createWebhook(new WebhookRequest("http://127.0.0.1:"
                + listening.substring("listening ".length()) + "/events", null, List.of("nodeCreated",
                "nodeDeleted")));
        Writer in = new java.io.OutputStreamWriter(receiver.getOutputStream(), StandardCharsets.UTF_8);
        in.write(hook.secret() + "\n");
        in.flush();

        admin.createUser(new UserRequest("alice", null, "alice@example.com", null));
        String ephemeralKey = admin.createPreAuthKey(new PreAuthKeyRequest("alice", null, false, true, true,
                "webhooks", null)).secret();
        TailscaleNode laptop = network.joined(ClientVersions.newest(), "laptop", ephemeralKey);
        JsonNode created = nextEvent(lines);
        assertEquals("nodeCreated", created.get("type").asString());
        assertEquals(1, created.get("version").asInt());
        JsonNode data = created.get("data");
        assertEquals(network.view("laptop").stableId(), data.get("nodeID").asString());
        assertTrue(data.get("deviceName").asString().startsWith("laptop"), data.toString());
        assertEquals("alice@example.com", data.get("managedBy").asString());
        assertTrue(data.get("addresses").size() >= 1, data.toString());

        laptop.logout().requireOk(); // an ephemeral node that logs out is removed
        JsonNode deleted = nextEvent(lines);
        assertEquals("nodeDeleted", deleted.get("type").asString());
        assertEquals(data.get("nodeID").asString(), deleted.get("data").get("nodeID").asString());

        assertTrue(admin.webhookDeliveries(hook.webhook().id()).stream().allMatch(d -> "200".equals(d.status())),
                "the receiver accepted every delivery");
    }

    /** The next event the receiver verified; an unverified request fails the test. */
    private static JsonNode nextEvent(LinkedBlockingQueue<String> lines) throws InterruptedException, IOException {
        String line = lines.poll(SOON.toSeconds(), TimeUnit.SECONDS);
        assertTrue(line != null, "the receiver got an event in time");
        JsonNode printed = JSON.readTree(line);
        assertTrue(printed.get("verified").asBoolean(), "the receiver verified the signature: " + line);
        return printed.get("event");
    }
}
