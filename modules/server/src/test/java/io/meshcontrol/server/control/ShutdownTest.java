package io.meshcontrol.server.control;

import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.core.key.NodePrivateKey;
import io.meshcontrol.core.wire.RegisterResponse;
import io.meshcontrol.core.wire.WireJson;
import io.meshcontrol.server.testing.TestServer;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A server stops promptly even while a machine's registration follow-up waits (up to 15 minutes) for a login. */
class ShutdownTest {

    @TempDir
    Path folder;

    @Test
    void stopIsNotHeldByAWaitingLoginFollowUp() throws Exception {
        TestServer server = TestServer.start(folder);
        InetSocketAddress address = new InetSocketAddress("127.0.0.1", server.server.httpAddress().getPort());
        String nodeKey = NodePrivateKey.generate().publicKey().toText();
        try (NoiseTestClient noise = NoiseTestClient.connect(address, server.server.noisePublicKey(), 142);
                Http2TestClient http2 = new Http2TestClient(noise)) {
            RegisterResponse pending = WireJson.read(http2.request("POST", "/machine/register", register(nodeKey, ""))
                    .body(Duration.ofSeconds(10)), RegisterResponse.class);
            assertTrue(pending.authUrl().contains("/register/"), pending.toString());
            http2.request("POST", "/machine/register", register(nodeKey, pending.authUrl()));
            Thread.sleep(300); // the follow-up is now waiting on the server
            assertTimeoutPreemptively(Duration.ofSeconds(20), server::close);
        }
    }

    @Test
    void stopIsNotHeldByIdleClientConnections() throws Exception {
        TestServer server = TestServer.start(folder);
        InetSocketAddress address = new InetSocketAddress("127.0.0.1", server.server.httpAddress().getPort());
        try (NoiseTestClient noise = NoiseTestClient.connect(address, server.server.noisePublicKey(), 142);
                Http2TestClient http2 = new Http2TestClient(noise)) {
            http2.request("POST", "/machine/register", register(NodePrivateKey.generate().publicKey().toText(), ""))
                    .body(Duration.ofSeconds(10));
            assertTimeoutPreemptively(Duration.ofSeconds(20), server::close, "clients keep their connections open");
        }
    }

    private static byte[] register(String nodeKey, String followup) {
        return ("{\"Version\":142,\"NodeKey\":\"" + nodeKey + "\",\"Followup\":\"" + followup
                + "\",\"Hostinfo\":{\"Hostname\":\"m\"}}").getBytes(StandardCharsets.UTF_8);
    }
}
