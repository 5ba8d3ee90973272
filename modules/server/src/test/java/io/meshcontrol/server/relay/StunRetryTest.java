package io.meshcontrol.server.relay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.api.DerpSettingsView;
import io.meshcontrol.core.wire.DERPNode;
import io.meshcontrol.server.testing.TestServer;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A STUN port that is busy at start: the server starts anyway, says STUN is unavailable, and binds once it is free. */
class StunRetryTest {

    private static final Duration RETRY = Duration.ofMillis(200);

    @TempDir
    Path folder;
    TestServer server;

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
    }

    private TestServer startWithStunOn(String address) {
        return TestServer.in(folder).relay(false).set("derp.server.stun_listen_addr", address)
                .set("derp.server.stun_retry_interval", RETRY.toMillis() + "ms").start();
    }

    private DERPNode published() {
        return server.server.mapContext().derpMap().regions().get(999).nodes().getFirst();
    }

    @Test
    void busyStunPortIsReportedAndBoundOnceFree() throws Exception {
        DatagramSocket busy = new DatagramSocket(new InetSocketAddress("127.0.0.1", 0));
        int port = busy.getLocalPort();
        String address = "127.0.0.1:" + port;
        try {
            server = startWithStunOn(address);
            EmbeddedRelay relay = server.server.relay().orElseThrow();
            assertEquals(DERPNode.STUN_DISABLED, relay.stunPort());
            assertEquals(DERPNode.STUN_DISABLED, published().stunPort(), "no STUN port is published while unbound");
            DerpSettingsView shown = server.adminClient().derp().value();
            assertTrue(shown.stunUnavailable() != null && shown.stunUnavailable().contains(address),
                    String.valueOf(shown));
            assertTrue(server.server.relayRuntime().describe().contains("STUN unavailable"),
                    server.server.relayRuntime().describe());
            HttpResponse<String> health = server.request("GET", "/health", null, null);
            assertEquals(200, health.statusCode());
            assertTrue(health.body().contains("\"status\":\"warn\"") && health.body().contains(address),
                    health.body());
        } finally {
            busy.close();
        }
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (published().stunPort() != port && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        assertEquals(port, published().stunPort(), "bound within the retry period, and the map names the port");
        assertEquals(port, server.server.relay().orElseThrow().stunPort());
        assertEquals(null, server.adminClient().derp().value().stunUnavailable());
        assertEquals("{\"status\":\"pass\"}", server.request("GET", "/health", null, null).body());
    }

    @Test
    void changeOfOtherSettingsIsNotRefusedWhileStunIsRetried() throws Exception {
        try (DatagramSocket busy = new DatagramSocket(new InetSocketAddress("127.0.0.1", 0))) {
            server = startWithStunOn("127.0.0.1:" + busy.getLocalPort());
            HttpResponse<String> response = server.request("PUT", "/api/v1/derp", server.localToken(),
                    "{\"verifyClients\":true,\"stunListenAddr\":\"127.0.0.1:" + busy.getLocalPort() + "\"}");
            assertEquals(200, response.statusCode(), response.body());
            assertTrue(server.server.relay().orElseThrow().stunProblem().isPresent(), "still retrying");
        }
    }
}
