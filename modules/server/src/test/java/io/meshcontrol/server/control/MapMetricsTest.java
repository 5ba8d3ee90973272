package io.meshcontrol.server.control;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.core.auth.Caller;
import io.meshcontrol.core.key.NodePrivateKey;
import io.meshcontrol.core.model.Role;
import io.meshcontrol.core.state.PreAuthKeys;
import io.meshcontrol.core.state.Users;
import io.meshcontrol.server.testing.TestServer;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code svc_map_*}: what the map endpoint writes, as Prometheus sees it. */
class MapMetricsTest {

    @TempDir
    Path folder;

    @Test
    void mapMessagesWrittenAreCountedByKind() throws Exception {
        try (TestServer server = TestServer.start(folder)) {
            server.network.users().create(Caller.localAdmin(), new Users.NewUser("odin", "", "", Role.MEMBER));
            String key = server.network.preAuthKeys().create(Caller.localAdmin(),
                    new PreAuthKeys.NewKey("odin", List.of(), false, false, false, "", null)).secret();
            String nodeKey = NodePrivateKey.generate().publicKey().toText();
            InetSocketAddress address = new InetSocketAddress("127.0.0.1", server.server.httpAddress().getPort());
            try (NoiseTestClient noise = NoiseTestClient.connect(address, server.server.noisePublicKey(), 142);
                    Http2TestClient http2 = new Http2TestClient(noise)) {
                http2.request("POST", "/machine/register", json("{\"Version\":142,\"NodeKey\":\"" + nodeKey
                        + "\",\"Auth\":{\"AuthKey\":\"" + key + "\"},\"Hostinfo\":{\"Hostname\":\"m\"}}"))
                        .body(Duration.ofSeconds(10));
                byte[] map = http2.request("POST", "/machine/map", json("{\"Version\":142,\"NodeKey\":\""
                        + nodeKey + "\",\"Stream\":false,\"Compress\":\"zstd\"}")).body(Duration.ofSeconds(10));
                assertTrue(map.length > 4, "a full map");
            }
            String metrics = server.scrapeMetrics().body();
            assertTrue(metrics.contains("svc_map_messages_total{kind=\"full\"} 1"), metrics);
            assertTrue(metrics.contains("svc_map_messages_total{kind=\"delta\"} 0"), metrics);
            assertTrue(metrics.contains("svc_map_full_map_seconds_count 1"), metrics);
            assertTrue(metrics.contains("svc_map_full_map_seconds_bucket{le=\"30.0\"} 1"), "buckets up to a minute: "
                    + metrics);
        }
    }

    private static byte[] json(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
