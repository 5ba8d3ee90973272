package io.meshcontrol.server.relay;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.api.PreAuthKeyRequest;
import io.meshcontrol.api.UserRequest;
import io.meshcontrol.core.key.NodePrivateKey;
import io.meshcontrol.core.testing.Machine;
import io.meshcontrol.core.wire.DERPNode;
import io.meshcontrol.core.wire.DERPRegion;
import io.meshcontrol.server.testing.TestServer;
import java.net.InetSocketAddress;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EmbeddedRelayTest {

    @TempDir
    Path folder;
    TestServer server;

    private InetSocketAddress start(boolean verifyClients) {
        server = TestServer.startWithRelay(folder, verifyClients);
        return server.server.httpAddress();
    }

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void twoClientsRelayPacketsThroughDerp() throws Exception {
        InetSocketAddress address = start(false);
        try (DerpSocketClient a = DerpSocketClient.connect(address, NodePrivateKey.generate());
             DerpSocketClient b = DerpSocketClient.connect(address, NodePrivateKey.generate())) {
            assertTrue(a.responseHead.toLowerCase().contains("upgrade: derp"), a.responseHead);
            assertTrue(a.responseHead.contains("Derp-Version: 2"), a.responseHead);
            a.send(0x04, b.key.publicKey().bytes(), "hello".getBytes());
            DerpSocketClient.Frame got = b.read();
            assertEquals(0x05, got.type());
            assertArrayEquals(a.key.publicKey().bytes(), Arrays.copyOf(got.payload(), 32));
            assertEquals("hello", new String(got.payload(), 32, got.payload().length - 32));
            b.send(0x12, new byte[] {1, 2, 3, 4, 5, 6, 7, 8});
            assertEquals(0x13, b.read().type());
        }
    }

    @Test
    void relayCountersAreExported() throws Exception {
        InetSocketAddress address = start(false);
        try (DerpSocketClient a = DerpSocketClient.connect(address, NodePrivateKey.generate());
             DerpSocketClient b = DerpSocketClient.connect(address, NodePrivateKey.generate())) {
            a.send(0x04, b.key.publicKey().bytes(), new byte[] {1});
            b.read();
            a.send(0x04, NodePrivateKey.generate().publicKey().bytes(), new byte[] {1});
            a.send(0x12, new byte[8]);
            a.read();
            InetSocketAddress metrics = server.server.metricsAddress().orElseThrow();
            String body = java.net.http.HttpClient.newHttpClient().send(java.net.http.HttpRequest.newBuilder(
                    java.net.URI.create("http://127.0.0.1:" + metrics.getPort() + "/metrics")).build(),
                    HttpResponse.BodyHandlers.ofString()).body();
            assertTrue(body.contains("svc_derp_clients 2"), body);
            assertTrue(body.contains("svc_derp_packets_forwarded_total 1"), body);
            assertTrue(body.contains("svc_derp_packets_dropped_total{reason=\"unknown_dest\"} 1"), body);
        }
    }

    @Test
    void manyPacketsArriveInOrder() throws Exception {
        InetSocketAddress address = start(false);
        try (DerpSocketClient a = DerpSocketClient.connect(address, NodePrivateKey.generate());
             DerpSocketClient b = DerpSocketClient.connect(address, NodePrivateKey.generate())) {
            // Fewer than the queue depth per round, so the reader keeping up means none is dropped.
            for (int round = 0; round < 50; round++) {
                for (int i = 0; i < 20; i++) {
                    a.send(0x04, b.key.publicKey().bytes(), ByteBuffer.allocate(1200).putInt(round * 20 + i).array());
                }
                for (int i = 0; i < 20; i++) {
                    DerpSocketClient.Frame got = b.read();
                    assertEquals(round * 20 + i, ByteBuffer.wrap(got.payload(), 32, 4).getInt());
                }
            }
        }
    }

    @Test
    void malformedFrameDropsOnlyThatClient() throws Exception {
        InetSocketAddress address = start(false);
        try (DerpSocketClient a = DerpSocketClient.connect(address, NodePrivateKey.generate());
             DerpSocketClient b = DerpSocketClient.connect(address, NodePrivateKey.generate());
             DerpSocketClient bad = DerpSocketClient.connect(address, NodePrivateKey.generate())) {
            bad.out.write(ByteBuffer.allocate(5).put((byte) 0x04).putInt(Integer.MAX_VALUE).array());
            bad.out.flush();
            assertTrue(bad.closedByServer());
            a.send(0x04, b.key.publicKey().bytes(), new byte[] {42});
            assertEquals(42, b.read().payload()[32]);
        }
    }

    @Test
    void garbageBeforeTheHandshakeDropsOnlyThatClient() throws Exception {
        InetSocketAddress address = start(false);
        try (DerpSocketClient a = DerpSocketClient.connect(address, NodePrivateKey.generate());
             DerpSocketClient bad = DerpSocketClient.upgrade(address, NodePrivateKey.generate(), "DERP")) {
            bad.readServerKey();
            bad.out.write("GET / HTTP/1.1\r\n\r\n".getBytes());
            bad.out.flush();
            assertTrue(bad.closedByServer());
            a.send(0x12, new byte[8]);
            assertEquals(0x13, a.read().type());
        }
    }

    @Test
    void unknownNodeIsRefusedWhenVerifyingClients() throws Exception {
        InetSocketAddress address = start(true);
        try (DerpSocketClient stranger = DerpSocketClient.upgrade(address, NodePrivateKey.generate(), "DERP")) {
            stranger.readServerKey();
            stranger.sendClientInfo();
            assertTrue(stranger.closedByServer());
        }
    }

    @Test
    void registeredNodeIsAdmittedWhenVerifyingClients() throws Exception {
        InetSocketAddress address = start(true);
        server.adminClient().createUser(new UserRequest("alice", null, "alice@example.com", "member"));
        String authKey = server.adminClient()
                .createPreAuthKey(new PreAuthKeyRequest("alice", null, false, false, false, "", null)).secret();
        NodePrivateKey node = NodePrivateKey.generate();
        Machine.named("laptop").nodeKey(node.publicKey()).join(server.network, authKey);
        try (DerpSocketClient client = DerpSocketClient.connect(address, node)) {
            client.send(0x12, new byte[8]);
            assertEquals(0x13, client.read().type());
        }
    }

    @Test
    void verifyAllowsKnownNodeKeysOnly() throws Exception {
        start(true);
        server.adminClient().createUser(new UserRequest("alice", null, "alice@example.com", "member"));
        String authKey = server.adminClient()
                .createPreAuthKey(new PreAuthKeyRequest("alice", null, false, false, false, "", null)).secret();
        NodePrivateKey node = NodePrivateKey.generate();
        Machine.named("laptop").nodeKey(node.publicKey()).join(server.network, authKey);
        String known = "{\"NodePublic\":\"" + node.publicKey().toText() + "\",\"Source\":\"192.0.2.5\"}";
        String unknown = "{\"NodePublic\":\"" + NodePrivateKey.generate().publicKey().toText() + "\"}";
        HttpResponse<String> allowed = server.request("POST", "/verify", null, known);
        assertEquals(200, allowed.statusCode());
        assertEquals("{\"Allow\":true}", allowed.body());
        assertEquals("{\"Allow\":false}", server.request("POST", "/verify", null, unknown).body());
        assertEquals(400, server.request("POST", "/verify", null, "{\"NodePublic\":\"nodekey:12\"}").statusCode());
        assertEquals(400, server.request("POST", "/verify", null, "not json").statusCode());
    }

    @Test
    void derpWithoutUpgradeIsRefused() throws Exception {
        InetSocketAddress address = start(false);
        try (DerpSocketClient plain = DerpSocketClient.upgrade(address, NodePrivateKey.generate(), null)) {
            assertTrue(plain.responseHead.startsWith("HTTP/1.1 426"), plain.responseHead);
        }
    }

    @Test
    void probesAnswerOk() {
        start(false);
        for (String path : new String[] {"/derp/probe", "/derp/latency-check"}) {
            HttpResponse<String> response = server.request("GET", path, null, null);
            assertEquals(200, response.statusCode());
            assertEquals("*", response.headers().firstValue("Access-Control-Allow-Origin").orElseThrow());
            assertEquals(200, server.request("HEAD", path, null, null).statusCode());
        }
    }

    @Test
    void mapCarriesTheEmbeddedRegion() {
        InetSocketAddress address = start(false);
        DERPRegion region = server.server.mapContext().derpMap().regions().get(999);
        assertEquals("svc", region.regionCode());
        DERPNode node = region.nodes().getFirst();
        assertEquals("127.0.0.1", node.hostName());
        assertEquals(address.getPort(), node.derpPort());
        assertEquals(server.server.relay().orElseThrow().stunPort(), node.stunPort());
        assertTrue(node.stunPort() > 0);
        assertTrue(node.insecureForTests(), "plain HTTP is published as insecure");
    }

    @Test
    void serverWithoutRelayHasNoDerpEndpoint() {
        server = TestServer.start(folder);
        assertFalse(server.server.relay().isPresent());
        assertEquals(404, server.request("GET", "/derp/probe", null, null).statusCode());
    }
}
