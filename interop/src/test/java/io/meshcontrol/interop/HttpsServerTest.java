package io.meshcontrol.interop;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.api.PreAuthKeyRequest;
import io.meshcontrol.api.UserRequest;
import io.meshcontrol.server.testing.TestCertificateAuthority;
import io.meshcontrol.server.testing.TestServer;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The server serving HTTPS itself ({@code tls_cert_path}, {@code tls_key_path}) with a certificate from a CA the
 * clients trust through {@code SSL_CERT_FILE}, as an operator's own CA would be: stock tailscaled joins over HTTPS and
 * uses the embedded relay on {@code server_url}, with no debug variable about DERP or TLS.
 */
class HttpsServerTest {

    private static final Duration SOON = Duration.ofSeconds(30);

    @RegisterExtension
    final TailscaleNodes nodes = new TailscaleNodes();

    @TempDir
    Path folder;

    private TestNetwork network;

    static Stream<ClientVersion> versions() {
        return ClientVersions.all();
    }

    @AfterEach
    void stop() throws Exception {
        if (network != null) {
            network.close();
        }
    }

    @ParameterizedTest(name = "tailscale {0}")
    @MethodSource("versions")
    void nodesJoinOverHttpsAndRelayThroughTheEmbeddedRelayOnServerUrl(ClientVersion version) {
        TestCertificateAuthority ca = TestCertificateAuthority.create("Home Lab Root");
        Path roots = ca.writeRoot(folder.resolve("roots.pem"));
        TestCertificateAuthority.Issued issued = ca.issue(folder.resolve("tls/cert.pem"), folder.resolve("tls/key.pem"),
                "localhost");
        network = TestNetwork.withEmbeddedRelay(folder, nodes, (TestServer.Builder server) -> server
                .relay(true)
                .set("server_url", "https://localhost:443")
                .set("tls_cert_path", issued.certificate().toString())
                .set("tls_key_path", issued.key().toString()));
        TestServer server = network.server();
        server.adminClient().createUser(new UserRequest("alice", "Alice", "alice@example.com", "admin"));
        String key = server.adminClient().createPreAuthKey(
                new PreAuthKeyRequest("alice", null, true, false, false, "t", null)).secret();
        URI loginServer = URI.create("https://localhost:" + server.server.httpAddress().getPort());

        TailscaleNode a = join(version, "a", loginServer, key, roots);
        TailscaleNode b = join(version, "b", loginServer, key, roots);
        a.awaitStatus("b online", s -> s.peerList().stream()
                .anyMatch(p -> p.dnsName().startsWith("b.") && p.online()), SOON);
        CliResult ping = null;
        for (int attempt = 0; attempt < 5 && (ping == null || !ping.ok()); attempt++) {
            ping = a.ping("b");
        }
        assertTrue(ping.ok() && ping.stdout().contains("pong from b"), ping.describe());
        // Disco messages go through the home relay before any direct path exists: ours, over TLS on server_url.
        assertTrue(server.server.relay().orElseThrow().derp().stats().forwarded.sum() > 0,
                "nothing was relayed through the embedded relay");
        for (TailscaleNode node : List.of(a, b)) {
            List<String> relayWarnings = node.status().health().stream()
                    .filter(h -> h.toLowerCase(Locale.ROOT).contains("derp")
                            || h.toLowerCase(Locale.ROOT).contains("relay")
                            || h.toLowerCase(Locale.ROOT).contains("certificate"))
                    .toList();
            assertTrue(relayWarnings.isEmpty(), node + " health warnings: " + relayWarnings);
            assertTrue(node.environment().keySet().stream().noneMatch(name -> name.contains("DERP")),
                    "no DERP debug variable: " + node.environment().keySet());
        }
    }

    private TailscaleNode join(ClientVersion version, String name, URI loginServer, String key, Path roots) {
        TailscaleNode node = network.builder(version, name).env("SSL_CERT_FILE", roots.toString()).start();
        node.up(loginServer, key, name).requireOk();
        return node;
    }
}
