package io.meshcontrol.interop;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.api.MeshClient;
import io.meshcontrol.api.PreAuthKeyRequest;
import io.meshcontrol.api.UserRequest;
import io.meshcontrol.core.key.NodePrivateKey;
import io.meshcontrol.core.testing.Machine;
import io.meshcontrol.core.wire.DERPMap;
import io.meshcontrol.server.relay.DerpSocketClient;
import io.meshcontrol.core.wire.DERPNode;
import io.meshcontrol.core.wire.DERPRegion;
import io.meshcontrol.core.wire.WireJson;
import java.util.Map;
import io.meshcontrol.server.testing.TestServer;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The embedded relay with the vendor's own tools: two real tailscaled forced onto DERP ping each other through it,
 * {@code tailscale netcheck} measures it over STUN, and {@code derpprobe} passes against it. The server listens on
 * plain HTTP, so every Go client gets {@code TS_DEBUG_USE_DERP_HTTP=1}.
 */
class EmbeddedRelayTest {

    private static final Duration SOON = Duration.ofSeconds(30);
    /** netcheck's line for a measured region: "- svc: 1.2ms (Mesh Control embedded relay)". */
    private static final Pattern MEASURED = Pattern.compile("-\\s*svc:\\s*[0-9.]+(ns|µs|us|ms|s)");

    @RegisterExtension
    final TailscaleNodes nodes = new TailscaleNodes();

    @TempDir
    Path folder;

    private TestNetwork network;
    private TestServer server;
    private MeshClient admin;

    static Stream<ClientVersion> versions() {
        return ClientVersions.all();
    }

    private void startServer() {
        // No other relay in the map: if DERP works at all, it is ours.
        network = TestNetwork.withEmbeddedRelay(folder, nodes, true);
        server = network.server();
        admin = server.adminClient();
        admin.createUser(new UserRequest("alice", "Alice", "alice@example.com", "admin"));
    }

    @AfterEach
    void stop() throws Exception {
        if (network != null) {
            network.close();
        }
    }

    private TailscaleNode joined(ClientVersion version, String name, String key) {
        return network.join(network.builder(version, name).env("TS_DEBUG_ALWAYS_USE_DERP", "1").start(), name, key);
    }

    @ParameterizedTest(name = "tailscale {0}")
    @MethodSource("versions")
    void nodesForcedOntoDerpPingThroughTheEmbeddedRelay(ClientVersion version) {
        startServer();
        String key = admin.createPreAuthKey(new PreAuthKeyRequest("alice", null, true, false, false, "t", null)).secret();
        TailscaleNode a = joined(version, "a", key);
        TailscaleNode b = joined(version, "b", key);
        a.awaitStatus("b online", s -> s.peerList().stream()
                .anyMatch(p -> p.dnsName().startsWith("b.") && p.online()), SOON);
        CliResult ping = null;
        // The first pings may go out before both ends hold their relay connection; give it a few rounds.
        for (int attempt = 0; attempt < 5; attempt++) {
            ping = a.ping("b");
            if (ping.ok() && ping.stdout().contains("via DERP(svc)")) {
                break;
            }
        }
        assertTrue(ping.ok() && ping.stdout().contains("pong from b") && ping.stdout().contains("via DERP(svc)"),
                ping.describe());
        assertTrue(server.server.relay().orElseThrow().derp().stats().forwarded.sum() > 0);
        // And back, so both directions went through the relay.
        CliResult back = b.ping("a");
        assertTrue(back.ok() && back.stdout().contains("via DERP(svc)"), back.describe());
    }

    @ParameterizedTest(name = "tailscale {0}")
    @MethodSource("versions")
    void netcheckMeasuresTheEmbeddedRegionOverStun(ClientVersion version) {
        startServer();
        String key = admin.createPreAuthKey(new PreAuthKeyRequest("alice", null, true, false, false, "t", null)).secret();
        TailscaleNode a = joined(version, "a", key);
        a.awaitStatus("running", NodeStatus::isRunning, SOON);
        CliResult netcheck = null;
        for (int attempt = 0; attempt < 3; attempt++) {
            netcheck = a.cli("netcheck");
            if (netcheck.ok() && MEASURED.matcher(netcheck.stdout()).find()) {
                break;
            }
        }
        assertTrue(netcheck.ok() && netcheck.stdout().contains("UDP: true")
                && MEASURED.matcher(netcheck.stdout()).find(), netcheck.describe());
    }

    /**
     * derpprobe insists on TLS (its DERP connections fail with "no TLS state" otherwise), so here the relay is
     * reached through a TLS-terminating proxy, as behind a reverse proxy in production. It probes STUN, and its mesh
     * probe connects two DERP clients of its own to the relay and passes packets between them.
     */
    @Test
    void derpprobePassesAgainstTheEmbeddedRelay() throws Exception {
        // derpprobe's clients are no nodes of this network, so verification is off here.
        network = TestNetwork.withEmbeddedRelay(folder, nodes, false);
        server = network.server();
        DERPNode published = server.server.mapContext().derpMap().regions().get(999).nodes().getFirst();
        try (TlsTerminator tls = TlsTerminator.start(folder.resolve("tls"), server.server.httpAddress())) {
            // A host name, not an address: derpprobe compares it with the TLS server name, and Go sends no SNI for
            // addresses. IPv4 pins the dial to loopback; no IPv6, so no udp6 probe (STUN listens on 127.0.0.1).
            DERPNode viaTls = DERPNode.builder().name(published.name()).regionId(999).hostName("localhost")
                    .ipv4("127.0.0.1").stunPort(published.stunPort()).derpPort(tls.port())
                    .insecureForTests(true).build();
            DERPMap map = new DERPMap(null, Map.of(999, new DERPRegion(999, "svc", "Mesh Control embedded relay", 0, 0,
                    false, false, List.of(viaTls))), false);
            Path mapFile = folder.resolve("derpmap.json");
            Files.write(mapFile, WireJson.write(map));
            runDerpprobe(mapFile);
        }
    }

    /**
     * The vendor's derper, told to ask our {@code /verify} (and not to fail open), admits a node this server knows
     * and refuses a key it does not.
     */
    @Test
    void externalDerperAsksVerifyAndAdmitsOnlyKnownNodes() throws Exception {
        network = TestNetwork.withoutRelay(folder, nodes);
        server = network.server();
        admin = server.adminClient();
        admin.createUser(new UserRequest("alice", "Alice", "alice@example.com", "admin"));
        String authKey = admin.createPreAuthKey(new PreAuthKeyRequest("alice", null, false, false, false, "t", null))
                .secret();
        NodePrivateKey known = NodePrivateKey.generate();
        Machine.named("laptop").nodeKey(known.publicKey()).join(server.network, authKey);
        try (Derper derper = Derper.start(ClientBinaries.of(ClientVersions.newest()), folder.resolve("derper"),
                "-verify-client-url", server.url().resolve("/verify").toString(),
                "-verify-client-url-fail-open=false")) {
            try (DerpSocketClient admitted = DerpSocketClient.connect(derper.address(), known)) {
                admitted.send(0x12, new byte[8]);
                assertTrue(admitted.read().type() == 0x13, "pong from derper");
            }
            try (DerpSocketClient stranger = DerpSocketClient.upgrade(derper.address(), NodePrivateKey.generate(),
                    "DERP")) {
                stranger.readServerKey();
                stranger.sendClientInfo();
                assertTrue(stranger.closedByServer(), "derper must refuse a key /verify does not allow");
            }
        }
    }

    private void runDerpprobe(Path map) throws Exception {
        ClientBinaries binaries = ClientBinaries.of(ClientVersions.newest());
        Path log = folder.resolve("derpprobe.log");
        // -tls-interval 0: the certificate probe would judge the proxy's self-signed certificate, not the relay.
        ProcessBuilder builder = new ProcessBuilder(List.of(binaries.derpprobe().toString(),
                "-derp-map", map.toUri().toString(), "-once", "-tls-interval", "0"))
                .redirectErrorStream(true)
                .redirectOutput(log.toFile());
        Process probe = ChildProcesses.start(builder);
        boolean done = probe.waitFor(60, TimeUnit.SECONDS);
        if (!done) {
            ChildProcesses.stop(probe, Duration.ZERO);
        }
        String output = Files.readString(log, StandardCharsets.UTF_8);
        assertTrue(done && probe.exitValue() == 0 && output.contains("good: derp/svc/999/999/mesh")
                && output.contains("good: derp/svc/999/udp") && !output.contains("bad:"), "derpprobe: " + output);
    }
}
