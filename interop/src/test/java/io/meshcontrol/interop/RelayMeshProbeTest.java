package io.meshcontrol.interop;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.core.testing.Await;
import io.meshcontrol.core.wire.DERPMap;
import io.meshcontrol.core.wire.DERPNode;
import io.meshcontrol.core.wire.DERPRegion;
import io.meshcontrol.core.wire.WireJson;
import io.meshcontrol.relay.derp.MeshLink;
import io.meshcontrol.server.testing.TestServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The relays of several instances meshed, judged by the vendor's tools: {@code derpprobe} probes every pair of nodes
 * of a region, so with two relays in the region its mesh probes pass only if a packet sent to one relay reaches a
 * client of the other; and one of our relays meshes with the vendor's own {@code derper --mesh-with}.
 *
 * <p>derpprobe presents the mesh key ({@code -mesh-psk-file}), so client verification stays on: the relays admit it
 * as a mesh peer, which also shows that they read the Go client's ClientInfo. It insists on TLS, so each relay is
 * reached through a TLS-terminating proxy, as behind a reverse proxy in production.
 */
class RelayMeshProbeTest {

    private static final String MESH_KEY = "0f1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c4b5a69788796a5b4c3d2e1f0";
    private static final int REGION = 999;

    @TempDir
    Path folder;
    private final List<AutoCloseable> running = new ArrayList<>();

    @AfterEach
    void stop() throws Exception {
        for (AutoCloseable part : running.reversed()) {
            part.close();
        }
    }

    private <T extends AutoCloseable> T running(T part) {
        running.add(part);
        return part;
    }

    private Path meshKey() throws IOException {
        Path key = folder.resolve("derp-mesh.key");
        if (!Files.exists(key)) {
            Files.writeString(key, MESH_KEY + "\n");
        }
        return key;
    }

    private TestServer instance(String name, int port, String relays) throws IOException {
        return running(TestServer.in(folder.resolve(name)).relay(true)
                .set("listen_addr", "127.0.0.1:" + port).set("server_url", "http://127.0.0.1:" + port)
                .set("derp.server.mesh_key_path", meshKey().toString()).set("derp.server.mesh_with", relays)
                .start());
    }

    @Test
    void derpprobePassesEveryPairOfTwoMeshedInstancesRelays() throws Exception {
        int firstPort = freePort();
        int secondPort = freePort();
        String relays = "http://127.0.0.1:" + firstPort + " http://127.0.0.1:" + secondPort;
        TestServer first = instance("a", firstPort, relays);
        TestServer second = instance("b", secondPort, relays);
        for (TestServer server : List.of(first, second)) {
            Await.until("the mesh link is up", Duration.ofSeconds(30),
                    () -> server.server.relay().orElseThrow().meshLinks().stream().anyMatch(MeshLink::connected),
                    () -> "");
        }
        DERPNode a = viaTls("999a", first.server.httpAddress(), first.server.relay().orElseThrow().stunPort());
        DERPNode b = viaTls("999b", second.server.httpAddress(), second.server.relay().orElseThrow().stunPort());
        String output = derpprobe(List.of(a, b));
        assertTrue(output.contains("good: derp/svc/999a/999b/mesh") && output.contains("good: derp/svc/999b/999a/mesh"),
                "derpprobe: " + output);
        assertTrue(first.server.relay().orElseThrow().derp().stats().forwardedToMesh.sum() > 0
                && second.server.relay().orElseThrow().derp().stats().forwardedToMesh.sum() > 0,
                "each relay forwarded to the other");
    }

    @Test
    void ourRelayMeshesWithTheVendorsDerper() throws Exception {
        int ourPort = freePort();
        // derper dials https://<host>/derp for each --mesh-with entry; TS_DEBUG_USE_DERP_HTTP makes it plain HTTP.
        Derper derper = running(Derper.startOn("127.0.0.1", ClientBinaries.of(ClientVersions.newest()),
                folder.resolve("derper"), Map.of("TS_DEBUG_USE_DERP_HTTP", "1"),
                "-mesh-psk-file", meshKey().toString(), "-mesh-with", "127.0.0.1:" + ourPort));
        InetSocketAddress derperAddress = derper.address();
        TestServer ours = instance("ours", ourPort, "http://127.0.0.1:" + ourPort + " http://"
                + derperAddress.getHostString() + ":" + derperAddress.getPort());
        Await.until("our link to derper is up", Duration.ofSeconds(30),
                () -> ours.server.relay().orElseThrow().meshLinks().stream().anyMatch(MeshLink::connected), () -> "");
        // derper's link to us: it watches our connections, so it is a watcher here once connected.
        Await.until("derper's link to us is up", Duration.ofSeconds(30),
                () -> ours.server.relay().orElseThrow().derp().clients().stream().anyMatch(s -> s.canMesh()),
                () -> "");
        DERPNode a = viaTls("999a", ours.server.httpAddress(), ours.server.relay().orElseThrow().stunPort());
        DERPNode b = viaTls("999b", derperAddress, derper.stunPort());
        String output = derpprobe(List.of(a, b));
        assertTrue(output.contains("good: derp/svc/999a/999b/mesh") && output.contains("good: derp/svc/999b/999a/mesh"),
                "derpprobe: " + output);
    }

    /** A node of the region reached through a TLS proxy in front of {@code backend}; STUN straight on loopback. */
    private DERPNode viaTls(String name, InetSocketAddress backend, int stunPort) throws Exception {
        TlsTerminator tls = running(TlsTerminator.start(folder.resolve("tls-" + name), backend));
        // A host name, not an address: derpprobe compares it with the TLS server name, and Go sends no SNI for
        // addresses. IPv4 pins the dial to loopback; no IPv6, so no udp6 probe.
        return DERPNode.builder().name(name).regionId(REGION).hostName("localhost").ipv4("127.0.0.1")
                .stunPort(stunPort).derpPort(tls.port()).insecureForTests(true).build();
    }

    /** Runs derpprobe once over a region of these nodes; returns its output after checking it found nothing bad. */
    private String derpprobe(List<DERPNode> nodes) throws Exception {
        DERPMap map = new DERPMap(null, Map.of(REGION, new DERPRegion(REGION, "svc", "Mesh Control embedded relay",
                0, 0, false, false, nodes)), false);
        Path mapFile = folder.resolve("derpmap.json");
        Files.write(mapFile, WireJson.write(map));
        Path log = folder.resolve("derpprobe.log");
        // -tls-interval 0: the certificate probe would judge the proxy's self-signed certificate, not the relay.
        Process probe = ChildProcesses.start(new ProcessBuilder(List.of(
                ClientBinaries.of(ClientVersions.newest()).derpprobe().toString(), "-derp-map",
                mapFile.toUri().toString(), "-once", "-tls-interval", "0", "-mesh-psk-file", meshKey().toString()))
                .redirectErrorStream(true).redirectOutput(log.toFile()));
        boolean done = probe.waitFor(90, TimeUnit.SECONDS);
        if (!done) {
            ChildProcesses.stop(probe, Duration.ZERO);
        }
        String output = Files.readString(log, StandardCharsets.UTF_8);
        assertTrue(done && probe.exitValue() == 0 && !output.contains("bad:"), "derpprobe: " + output);
        return output;
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }
}
