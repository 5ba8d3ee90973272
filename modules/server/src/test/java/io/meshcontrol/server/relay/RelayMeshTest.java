package io.meshcontrol.server.relay;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.core.key.NodePrivateKey;
import io.meshcontrol.core.testing.Await;
import io.meshcontrol.relay.derp.DerpServer;
import io.meshcontrol.relay.derp.MeshLink;
import io.meshcontrol.server.testing.TestServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two instances' embedded relays meshed ({@code derp.server.mesh_with}, one mesh key): a client of one relay reaches
 * a client of the other, and hears when it leaves.
 */
class RelayMeshTest {

    private static final String MESH_KEY = "6d529e9d4ef632d22d4a4214cb49da8f1ba1b72697061fb24e312984c35ec8d8";

    @TempDir
    Path folder;
    private TestServer first;
    private TestServer second;

    @AfterEach
    void stop() {
        if (first != null) {
            first.close();
        }
        if (second != null) {
            second.close();
        }
    }

    private void startMeshedPair() throws IOException {
        Path key = folder.resolve("derp-mesh.key");
        Files.writeString(key, MESH_KEY + "\n");
        int firstPort = freePort();
        int secondPort = freePort();
        // The same list on both, each naming itself too, as derper's --mesh-with allows.
        String relays = "http://127.0.0.1:" + firstPort + " http://127.0.0.1:" + secondPort;
        first = meshed(folder.resolve("a"), firstPort, key, relays);
        second = meshed(folder.resolve("b"), secondPort, key, relays);
    }

    private static TestServer meshed(Path dir, int port, Path key, String relays) {
        return TestServer.in(dir).relay(false)
                .set("listen_addr", "127.0.0.1:" + port).set("server_url", "http://127.0.0.1:" + port)
                .set("derp.server.mesh_key_path", key.toString()).set("derp.server.mesh_with", relays)
                .start();
    }

    private static DerpServer derp(TestServer server) {
        return server.server.relay().orElseThrow().derp();
    }

    @Test
    void clientsOfTwoMeshedRelaysReachEachOther() throws Exception {
        startMeshedPair();
        try (DerpSocketClient a = DerpSocketClient.connect(first.server.httpAddress(), NodePrivateKey.generate());
             DerpSocketClient b = DerpSocketClient.connect(second.server.httpAddress(), NodePrivateKey.generate())) {
            Await.until("the first relay hears of the second's client", () -> derp(first).reaches(b.key.publicKey()));
            Await.until("the second relay hears of the first's client", () -> derp(second).reaches(a.key.publicKey()));
            a.send(0x04, b.key.publicKey().bytes(), "over the mesh".getBytes());
            DerpSocketClient.Frame got = readPacket(b);
            assertArrayEquals(a.key.publicKey().bytes(), Arrays.copyOf(got.payload(), 32));
            assertEquals("over the mesh", new String(got.payload(), 32, got.payload().length - 32));
            b.send(0x04, a.key.publicKey().bytes(), "and back".getBytes());
            DerpSocketClient.Frame back = readPacket(a);
            assertEquals("and back", new String(back.payload(), 32, back.payload().length - 32));
            assertEquals(1, derp(first).stats().forwardedToMesh.sum());
            assertEquals(1, derp(second).stats().forwardedFromMesh.sum());
        }
    }

    @Test
    void theLinkToItselfStopsAndTheOtherStaysUp() throws Exception {
        startMeshedPair();
        for (TestServer server : new TestServer[] {first, second}) {
            Await.until("one link up and one found itself", () -> {
                var links = server.server.relay().orElseThrow().meshLinks();
                return links.size() == 2 && links.stream().filter(MeshLink::isSelf).count() == 1
                        && links.stream().filter(MeshLink::connected).count() == 1;
            });
        }
    }

    @Test
    void aClientLeavingTheOtherRelayIsToldToThoseThatSentToIt() throws Exception {
        startMeshedPair();
        try (DerpSocketClient a = DerpSocketClient.connect(first.server.httpAddress(), NodePrivateKey.generate())) {
            DerpSocketClient b = DerpSocketClient.connect(second.server.httpAddress(), NodePrivateKey.generate());
            Await.until("the first relay hears of the second's client", () -> derp(first).reaches(b.key.publicKey()));
            a.send(0x04, b.key.publicKey().bytes(), new byte[] {1});
            readPacket(b);
            b.close();
            DerpSocketClient.Frame gone = a.read();
            while (gone.type() == 0x06) {
                gone = a.read();
            }
            assertEquals(0x08, gone.type(), "PeerGone");
            assertArrayEquals(b.key.publicKey().bytes(), Arrays.copyOf(gone.payload(), 32));
            Await.until("the first relay forgets the client", () -> !derp(first).reaches(b.key.publicKey()));
        }
    }

    @Test
    void aRestartedInstanceIsMeshedAgain() throws Exception {
        startMeshedPair();
        Path key = folder.resolve("derp-mesh.key");
        int secondPort = second.server.httpAddress().getPort();
        String relays = "http://127.0.0.1:" + first.server.httpAddress().getPort() + " http://127.0.0.1:" + secondPort;
        second.close();
        second = meshed(folder.resolve("b"), secondPort, key, relays);
        try (DerpSocketClient b = DerpSocketClient.connect(second.server.httpAddress(), NodePrivateKey.generate())) {
            // The first relay's link dials again (every 5 s) and learns of the new client.
            Await.until("the first relay reaches the restarted relay's client",
                    java.time.Duration.ofSeconds(30), () -> derp(first).reaches(b.key.publicKey()), () -> "");
        }
    }

    /** The next packet, skipping keep-alives and presence frames. */
    private static DerpSocketClient.Frame readPacket(DerpSocketClient client) throws IOException {
        DerpSocketClient.Frame frame = client.read();
        while (frame.type() != 0x05) {
            frame = client.read();
        }
        return frame;
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }
}
