package io.meshcontrol.server.control;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.api.PreAuthKeyRequest;
import io.meshcontrol.api.UserRequest;
import io.meshcontrol.core.event.MeshEvent;
import io.meshcontrol.core.model.Node;
import io.meshcontrol.core.testing.Machine;
import io.meshcontrol.core.wire.SSHEventNotifyRequest;
import io.meshcontrol.server.testing.TestServer;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A node's report of an SSH session it could not record, sent as tailscaled's {@code ssh/tailssh} sends it: the JSON
 * of {@code tailcfg.SSHEventNotifyRequest} (Go field names, no tags) posted over its ts2021 connection, expecting 201.
 */
class SshRecordingFailureEndpointTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(20);

    @TempDir
    Path folder;
    TestServer server;
    final List<MeshEvent> events = new CopyOnWriteArrayList<>();

    @BeforeEach
    void start() {
        server = TestServer.start(folder);
        server.adminClient().createUser(new UserRequest("alice", null, "alice@example.com", "member"));
        server.network.events().subscribe(events::add);
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private String authKey() {
        return server.adminClient().createPreAuthKey(new PreAuthKeyRequest("alice", null, true, false, false, "", null))
                .secret();
    }

    /** What notifyControl marshals, byte for byte the shape of Go's encoding/json. */
    private static String report(int eventType, Node self, long srcNode, String attempts) {
        return "{\"EventType\":" + eventType + ",\"ConnectionID\":\"ssh-conn-20260101T000000-0123456789\","
                + "\"CapVersion\":131,\"NodeKey\":\"" + self.nodeKey().toText() + "\",\"SrcNode\":" + srcNode
                + ",\"SSHUser\":\"alice\",\"LocalUser\":\"root\",\"RecordingAttempts\":" + attempts + "}";
    }

    @Test
    void aReportOverTheControlConnectionBecomesOneSshRecordingFailedEvent() throws Exception {
        Node source = Machine.named("laptop").join(server.network, authKey());
        InetSocketAddress address = new InetSocketAddress("127.0.0.1", server.server.httpAddress().getPort());
        try (NoiseTestClient noise = NoiseTestClient.connect(address, server.server.noisePublicKey(), 131);
                Http2TestClient http2 = new Http2TestClient(noise)) {
            Node target = Machine.named("server").machineKey(noise.machineKey.publicKey())
                    .join(server.network, authKey());
            events.clear();
            String body = report(1, target, source.id(), "[{\"Recorder\":\"100.64.0.9:80\","
                    + "\"FailureMessage\":\"dial tcp 100.64.0.9:80: connect: connection refused\"},"
                    + "{\"Recorder\":\"[fd7a:115c:a1e0::9]:80\",\"FailureMessage\":\"\"}]");
            Http2TestClient.Exchange answer = http2.request("POST", SSHEventNotifyRequest.NOTIFY_PATH,
                    body.getBytes(StandardCharsets.UTF_8));
            assertEquals(201, answer.status(TIMEOUT), "the client logs anything but 201");

            assertEquals(1, events.size(), events.toString());
            MeshEvent.SshRecordingFailed event = (MeshEvent.SshRecordingFailed) events.getFirst();
            assertEquals("sshRecordingFailed", event.type());
            assertEquals(target.id(), event.node().id(), "the node behind the connection, logged into");
            assertEquals("rejected", event.event());
            assertEquals(source.id(), event.srcNode().id());
            assertEquals("alice", event.sshUser());
            assertEquals("root", event.localUser());
            assertEquals(List.of(new MeshEvent.RecordingAttempt("100.64.0.9:80",
                            "dial tcp 100.64.0.9:80: connect: connection refused"),
                    new MeshEvent.RecordingAttempt("[fd7a:115c:a1e0::9]:80", "")), event.attempts());

            assertEquals(400, http2.request("POST", SSHEventNotifyRequest.NOTIFY_PATH,
                    report(0, target, source.id(), "null").getBytes(StandardCharsets.UTF_8)).status(TIMEOUT));
            assertEquals(400, http2.request("POST", SSHEventNotifyRequest.NOTIFY_PATH,
                    "not json".getBytes(StandardCharsets.UTF_8)).status(TIMEOUT));
            assertEquals(1, events.size(), "refused reports tell nobody");
        }
    }

    @Test
    void eachVendorEventTypeIsNamedAsTheSpecSaysAndAnUnknownSourceIsKeptById() throws Exception {
        Node target = Machine.named("server").join(server.network, authKey());
        SshRecordingFailureEndpoint endpoint = new SshRecordingFailureEndpoint(server.network.nodes());
        events.clear();
        for (int type = 1; type <= 3; type++) {
            endpoint.report(target.machineKey(), io.meshcontrol.core.wire.WireJson.read(
                    report(type, target, 999, "[{\"Recorder\":\"100.64.0.9:80\",\"FailureMessage\":\"x\"}]"),
                    SSHEventNotifyRequest.class));
        }
        assertEquals(List.of("rejected", "terminated", "failed"),
                events.stream().map(e -> ((MeshEvent.SshRecordingFailed) e).event()).toList());
        MeshEvent.SshRecordingFailed last = (MeshEvent.SshRecordingFailed) events.getLast();
        assertNull(last.srcNode(), "a source node that is gone");
        assertEquals(999, last.srcNodeId());
        assertTrue(events.stream().allMatch(e -> ((MeshEvent.NodeEvent) e).node().id() == target.id()));
    }
}
