package io.meshcontrol.server.relay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.api.PreAuthKeyRequest;
import io.meshcontrol.api.UserRequest;
import io.meshcontrol.core.key.NodePrivateKey;
import io.meshcontrol.core.testing.Machine;
import io.meshcontrol.core.wire.DERPNode;
import io.meshcontrol.core.wire.DERPRegion;
import io.meshcontrol.server.testing.TestServer;
import java.io.IOException;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.net.http.HttpResponse;
import java.nio.channels.DatagramChannel;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The relay's runtime switches: off disconnects everyone, verification on disconnects unknown keys only, STUN off
 * closes its socket and on binds again; {@code /bootstrap-dns} answers while the relay is on.
 */
class RelaySwitchesTest {

    @TempDir
    Path folder;
    TestServer server;
    InetSocketAddress address;

    @BeforeEach
    void start() {
        server = TestServer.startWithRelay(folder, false);
        address = server.server.httpAddress();
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private void put(String body) {
        HttpResponse<String> response = server.request("PUT", "/api/v1/derp", server.localToken(), body);
        assertEquals(200, response.statusCode(), response.body());
    }

    private NodePrivateKey registeredNode() {
        server.adminClient().createUser(new UserRequest("alice", null, "alice@example.com", "member"));
        String authKey = server.adminClient()
                .createPreAuthKey(new PreAuthKeyRequest("alice", null, false, false, false, "", null)).secret();
        NodePrivateKey node = NodePrivateKey.generate();
        Machine.named("laptop").nodeKey(node.publicKey()).join(server.network, authKey);
        return node;
    }

    @Test
    void turningTheRelayOffDisconnectsEveryClientAndOnServesAgain() throws Exception {
        try (DerpSocketClient a = DerpSocketClient.connect(address, NodePrivateKey.generate())) {
            put("{\"relayEnabled\":false,\"verifyClients\":false}");
            assertTrue(a.closedByServer());
        }
        assertEquals(404, server.request("GET", "/derp/probe", null, null).statusCode());
        assertEquals(404, server.request("GET", "/bootstrap-dns", null, null).statusCode());
        assertTrue(server.server.mapContext().derpMap().regions().get(999).noMeasureNoHome(),
                "still in the map, as no home");
        assertFalse(server.server.relay().isPresent());
        put("{\"relayEnabled\":true,\"verifyClients\":false}");
        assertFalse(server.server.mapContext().derpMap().regions().get(999).noMeasureNoHome());
        try (DerpSocketClient b = DerpSocketClient.connect(address, NodePrivateKey.generate())) {
            b.send(0x12, new byte[8]);
            assertEquals(0x13, b.read().type());
        }
    }

    /**
     * A region that leaves the map can stay a 1.102 client's home with no connection to it, and its return is no
     * change the client acts on: so the region stays while the relay is off, redefined twice (issue 33 item 6).
     */
    @Test
    void aRelayTurnedOffStaysInTheMapAsNoHomeAndIsRedefinedWhenItReturns() {
        DERPRegion on = server.server.mapContext().derpMap().regions().get(999);
        put("{\"relayEnabled\":false}");
        DERPRegion off = server.server.mapContext().derpMap().regions().get(999);
        assertTrue(off.noMeasureNoHome(), "not measured and no home while off");
        assertEquals(on.nodes().getFirst().hostName(), off.nodes().getFirst().hostName());
        assertEquals(DERPNode.STUN_DISABLED, off.nodes().getFirst().stunPort());
        put("{\"relayEnabled\":true}");
        DERPRegion back = server.server.mapContext().derpMap().regions().get(999);
        assertFalse(back.noMeasureNoHome(), "a home again");
        assertEquals(on.nodes().getFirst().derpPort(), back.nodes().getFirst().derpPort());
    }

    @Test
    void turningVerificationOnDisconnectsUnknownClientsOnly() throws Exception {
        put("{\"verifyClients\":false}");
        NodePrivateKey known = registeredNode();
        try (DerpSocketClient member = DerpSocketClient.connect(address, known);
             DerpSocketClient stranger = DerpSocketClient.connect(address, NodePrivateKey.generate())) {
            put("{\"verifyClients\":true}");
            assertTrue(stranger.closedByServer());
            member.send(0x12, new byte[8]);
            assertEquals(0x13, member.read().type(), "a node of this network stays connected");
        }
        try (DerpSocketClient again = DerpSocketClient.upgrade(address, NodePrivateKey.generate(), "DERP")) {
            again.readServerKey();
            again.sendClientInfo();
            assertTrue(again.closedByServer(), "and cannot come back");
        }
    }

    @Test
    void stunOffClosesTheSocketAndOnBindsAgain() throws Exception {
        int port = server.server.relay().orElseThrow().stunPort();
        put("{\"stunEnabled\":false,\"verifyClients\":false,\"stunListenAddr\":\"127.0.0.1:" + port + "\"}");
        assertEquals(-1, server.server.relay().orElseThrow().stunPort());
        try (DatagramChannel probe = DatagramChannel.open()) {
            probe.bind(new InetSocketAddress("127.0.0.1", port)); // free again: the listener is closed
        }
        put("{\"stunEnabled\":true,\"verifyClients\":false,\"stunListenAddr\":\"127.0.0.1:" + port + "\"}");
        assertEquals(port, server.server.relay().orElseThrow().stunPort());
        try (DatagramChannel probe = DatagramChannel.open()) {
            assertThrows(BindException.class, () -> probe.bind(new InetSocketAddress("127.0.0.1", port)),
                    "bound again");
        }
    }

    @Test
    void unbindableStunAddressRefusesTheChange() throws IOException {
        try (DatagramChannel taken = DatagramChannel.open()) {
            taken.bind(new InetSocketAddress("127.0.0.1", 0));
            int port = ((InetSocketAddress) taken.getLocalAddress()).getPort();
            HttpResponse<String> response = server.request("PUT", "/api/v1/derp", server.localToken(),
                    "{\"verifyClients\":false,\"stunListenAddr\":\"127.0.0.1:" + port + "\"}");
            assertEquals(400, response.statusCode());
            assertTrue(response.body().contains("cannot bind STUN"), response.body());
            assertTrue(server.network.auditLog().recent("derp.update", 1).isEmpty(), "nothing saved");
        }
    }

    @Test
    void bootstrapDnsAnswersRelayAndServerAddresses() {
        put("{\"verifyClients\":false,\"relays\":[{\"regionId\":900,\"code\":\"home\",\"host\":\"192.0.2.7\"}]}");
        BootstrapDnsCache cache = server.server.relayRuntime().bootstrapDns();
        cache.refresh(); // also runs in the background on every map change; here the answer is wanted now
        HttpResponse<String> all = server.request("GET", "/bootstrap-dns", null, null);
        assertEquals(200, all.statusCode());
        assertEquals("{\"127.0.0.1\":[\"127.0.0.1\"],\"192.0.2.7\":[\"192.0.2.7\"]}", all.body());
        assertEquals("{\"192.0.2.7\":[\"192.0.2.7\"]}",
                server.request("GET", "/bootstrap-dns?q=192.0.2.7", null, null).body());
        assertEquals("{}", server.request("GET", "/bootstrap-dns?q=other.example", null, null).body());
    }
}
