package io.meshcontrol.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.api.NodeView;
import io.meshcontrol.cli.CliRun;
import io.meshcontrol.core.key.MachinePrivateKey;
import io.meshcontrol.server.testing.TestServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The move from headscale with the real thing (docs/migrating-from-headscale.md): headscale 0.29.2 (built by
 * bench/install-headscale.sh) on SQLite and a loopback URL, real clients joined to it (a plain node using an exit
 * node, a subnet router with an approved route, a tagged node, an exit node), a policy in its database, MagicDNS
 * and a reusable pre-auth key; then headscale stops, {@code svc import headscale} runs, and our server starts on the
 * same URL. Every client must come back online by itself, with the same addresses, stable ids, node keys and names,
 * reach every peer, still see the route and use the exit node, and headscale's key must still join a new node.
 * <p>
 * The slow suite: it needs a headscale build (minutes the first time), so it runs only with
 * {@code -Dsvc.headscale=true}; the one command is in docs/migrating-from-headscale.md.
 */
@EnabledIfSystemProperty(named = "svc.headscale", matches = "true")
class HeadscaleMigrationTest {

    private static final Duration SOON = Duration.ofSeconds(90);
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final String ROUTE = "10.77.0.0/16";

    @RegisterExtension
    final TailscaleNodes nodes = new TailscaleNodes();

    @TempDir
    Path folder;

    private Derper derper;
    private Process headscale;
    private TestServer server;

    static Stream<ClientVersion> versions() {
        return ClientVersions.all();
    }

    @AfterEach
    void stop() throws Exception {
        if (server != null) {
            server.close();
        }
        stopHeadscale();
        if (derper != null) {
            derper.close();
        }
    }

    @ParameterizedTest(name = "tailscale {0}")
    @MethodSource("versions")
    @Timeout(value = 15, unit = TimeUnit.MINUTES)
    void aHeadscaleNetworkMovesOverWithoutAnyClientLoggingInAgain(ClientVersion version) throws Exception {
        Path binary = headscaleBinary();
        derper = Derper.start(ClientBinaries.of(ClientVersions.newest()), folder.resolve("derper"));
        int port = freePort();
        URI url = URI.create("http://127.0.0.1:" + port);
        Path config = writeHeadscaleConfig(port);
        startHeadscale(binary, config);

        headscaleCli(binary, config, "users", "create", "alice", "--email", "alice@example.com");
        Path policy = Files.writeString(folder.resolve("policy.hujson"), """
                {
                  // a user with an e-mail address is named by it, by headscale as by svc
                  "tagOwners": {"tag:server": ["alice@example.com"]},
                  "acls": [{"action": "accept", "src": ["*"], "dst": ["*:*"]}],
                }
                """);
        headscaleCli(binary, config, "policy", "set", "-f", policy.toString());
        String key = headscaleCli(binary, config, "preauthkeys", "create", "--user", "1", "--reusable",
                "--expiration", "24h").strip();
        assertTrue(key.startsWith("hskey-auth-"), key);
        // headscale tags a node by its key (tags a node asks for at login are refused with a user's key)
        String taggedKey = headscaleCli(binary, config, "preauthkeys", "create", "--tags", "tag:server",
                "--reusable", "--expiration", "24h").strip();

        TailscaleNode a = join(version, "a", url, key);
        join(version, "r", url, key, "--advertise-routes=" + ROUTE);
        join(version, "t", url, taggedKey);
        join(version, "e", url, key, "--advertise-exit-node");
        Map<String, Long> ids = headscaleNodeIds(binary, config);
        headscaleCli(binary, config, "nodes", "approve-routes", "--identifier", ids.get("r").toString(),
                "--routes", ROUTE);
        headscaleCli(binary, config, "nodes", "approve-routes", "--identifier", ids.get("e").toString(),
                "--routes", "0.0.0.0/0,::/0");
        a.awaitStatus("r serving its route and e offering to be an exit node under headscale",
                s -> serves(s, "r") && s.peer("e").map(p -> p.json().path("ExitNodeOption").asBoolean(false))
                        .orElse(false), SOON);
        a.cli("set", "--exit-node=e").requireOk();
        a.awaitStatus("a using e", s -> s.json().path("ExitNodeStatus").path("Online").asBoolean(false), SOON);
        Map<String, PeerStatus> before = selves();

        stopHeadscale();
        Path svcConfig = Files.writeString(folder.resolve("svc.yaml"), """
                database:
                  sqlite:
                    path: "%s"
                noise:
                  private_key_path: "%s"
                """.formatted(folder.resolve("data/db.sqlite"), folder.resolve("data/noise_private.key")));
        CliRun dryRun = CliRun.withConfig(folder, svcConfig, "import", "headscale", "--db",
                folder.resolve("headscale/db.sqlite").toString(), "--config", config.toString(), "--dry-run");
        assertEquals(0, dryRun.exitCode(), dryRun.toString());
        assertTrue(dryRun.out().contains("4 node(s)"), dryRun.out());
        assertTrue(!Files.exists(folder.resolve("data/db.sqlite")), "a dry run changes nothing");
        // The configuration made from headscale's goes where the server looks for it: config.yaml in its working
        // directory (TestServer's data folder), so the server below runs on it: DNS, and headscale's DERP map file.
        Path generated = folder.resolve("data/config.yaml");
        Files.createDirectories(generated.getParent());
        CliRun imported = CliRun.withConfig(folder, svcConfig, "import", "headscale", "--db",
                folder.resolve("headscale/db.sqlite").toString(), "--config", config.toString(), "--write-config",
                generated.toString());
        assertEquals(0, imported.exitCode(), imported.toString());
        assertTrue(Files.readString(generated).contains("base_domain: \"hs.test\""), Files.readString(generated));

        // TestServer sets these three as variables, which win over the file: set back to what the file says.
        server = TestServer.in(folder).set("server_url", url.toString()).set("listen_addr", "127.0.0.1:" + port)
                .set("dns.base_domain", "hs.test").start();
        MachinePrivateKey headscaleKey = MachinePrivateKey.load(folder.resolve("headscale/noise_private.key"));
        assertEquals(headscaleKey.publicKey().toText(), serverKey(url), "the server speaks with headscale's Noise key");

        for (TailscaleNode node : nodes.all()) {
            NodeStatus status = node.awaitStatus("every peer online under svc", s -> s.isRunning()
                    && s.peerList().size() == 3 && s.peerList().stream().allMatch(PeerStatus::online), SOON);
            PeerStatus self = status.self();
            PeerStatus was = before.get(node.name());
            assertEquals(was.tailscaleIps(), self.tailscaleIps(), node.name() + " keeps its addresses");
            assertEquals(was.id(), self.id(), node.name() + " keeps its stable id");
            assertEquals(was.publicKey(), self.publicKey(), node.name() + " keeps its node key: no new login");
            assertEquals(node.name() + ".hs.test.", self.dnsName(), node.name() + " keeps its MagicDNS name");
            for (PeerStatus peer : status.peerList()) {
                node.ping(peer.tailscaleIps().get(0)).requireOk();
                CliResult query = node.cli("dns", "query", peer.dnsName()).requireOk();
                assertTrue(query.stdout().contains(peer.tailscaleIps().get(0)),
                        node.name() + " resolves " + peer.dnsName() + ": " + query.stdout());
            }
        }
        a.awaitStatus("r's route again", s -> serves(s, "r"), SOON);
        NodeStatus seen = a.awaitStatus("e as a's exit node again",
                s -> s.json().path("ExitNodeStatus").path("Online").asBoolean(false), SOON);
        assertEquals(before.get("e").id(), seen.json().path("ExitNodeStatus").path("ID").asString(),
                "a's exit node preference still names e");
        assertEquals(List.of("tag:server"), seen.peer("t").orElseThrow().tags());
        CliResult extra = a.cli("dns", "query", "grafana.hs.test.").requireOk();
        assertTrue(extra.stdout().contains("100.64.0.50"), "headscale's extra record: " + extra.stdout());
        assertEquals(4, server.adminClient().nodes().size(), "no node registered again");

        TailscaleNode n = join(version, "n", url, key);
        NodeView joined = server.adminClient().nodes().stream().filter(v -> v.name().equals("n")).findFirst()
                .orElseThrow();
        assertEquals("alice", joined.user(), "headscale's pre-auth key still joins nodes, for its user");
        n.awaitStatus("the new node sees the others", s -> s.peerList().size() == 4, SOON);
    }

    private TailscaleNode join(ClientVersion version, String name, URI url, String key, String... args) {
        TailscaleNode node = nodes.builder(version, name).env("TS_DEBUG_USE_DERP_HTTP", "1").start();
        node.up(url, key, name, args).requireOk();
        return node;
    }

    private Map<String, PeerStatus> selves() {
        Map<String, PeerStatus> selves = new LinkedHashMap<>();
        nodes.all().forEach(node -> selves.put(node.name(), node.status().self()));
        return selves;
    }

    private static boolean serves(NodeStatus status, String router) {
        return status.peer(router).map(p -> PeerStatus.texts(p.json(), "PrimaryRoutes").contains(ROUTE)).orElse(false);
    }

    private Path writeHeadscaleConfig(int port) throws IOException {
        Path dir = Files.createDirectories(folder.resolve("headscale"));
        JsonNode map = JSON.readTree(derper.derpMapJson()).path("Regions");
        StringBuilder derpYaml = new StringBuilder("regions:\n");
        for (Map.Entry<String, JsonNode> region : map.properties()) {
            JsonNode node = region.getValue().path("Nodes").get(0);
            derpYaml.append("  ").append(region.getKey()).append(":\n")
                    .append("    regionid: ").append(region.getKey()).append('\n')
                    .append("    regioncode: test\n    regionname: Loopback relay\n    nodes:\n")
                    .append("      - name: ").append(node.path("Name").asString()).append('\n')
                    .append("        regionid: ").append(region.getKey()).append('\n')
                    .append("        hostname: ").append(node.path("HostName").asString()).append('\n')
                    .append("        ipv4: ").append(node.path("IPv4").asString()).append('\n')
                    .append("        ipv6: none\n")
                    .append("        stunport: ").append(node.path("STUNPort").asInt()).append('\n')
                    .append("        derpport: ").append(node.path("DERPPort").asInt()).append('\n')
                    .append("        insecurefortests: true\n");
        }
        Path derpFile = Files.writeString(dir.resolve("derp.yaml"), derpYaml);
        return Files.writeString(dir.resolve("config.yaml"), """
                server_url: http://127.0.0.1:%d
                listen_addr: 127.0.0.1:%d
                metrics_listen_addr: 127.0.0.1:%d
                grpc_listen_addr: 127.0.0.1:%d
                unix_socket: %s
                noise:
                  private_key_path: %s
                prefixes:
                  v4: 100.64.0.0/10
                  v6: fd7a:115c:a1e0::/48
                derp:
                  server:
                    enabled: false
                  urls: []
                  paths: [%s]
                  auto_update_enabled: false
                database:
                  type: sqlite
                  sqlite:
                    path: %s
                policy:
                  mode: database
                dns:
                  magic_dns: true
                  base_domain: hs.test
                  override_local_dns: true
                  nameservers:
                    global: [192.0.2.53]
                  extra_records:
                    - {name: grafana.hs.test, type: A, value: 100.64.0.50}
                log:
                  level: info
                """.formatted(port, port, freePort(), freePort(), dir.resolve("headscale.sock"),
                dir.resolve("noise_private.key"), derpFile, dir.resolve("db.sqlite")));
    }

    private void startHeadscale(Path binary, Path config) throws Exception {
        Path log = folder.resolve("headscale/headscale.log");
        headscale = new ProcessBuilder(binary.toString(), "-c", config.toString(), "serve")
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (!Files.exists(folder.resolve("headscale/headscale.sock"))) {
            if (!headscale.isAlive() || System.nanoTime() > deadline) {
                throw new IllegalStateException("headscale did not start: " + Files.readString(log));
            }
            Thread.sleep(100);
        }
    }

    private void stopHeadscale() throws InterruptedException {
        if (headscale != null && headscale.isAlive()) {
            headscale.destroy();
            if (!headscale.waitFor(30, TimeUnit.SECONDS)) {
                headscale.destroyForcibly().waitFor();
            }
        }
    }

    private String headscaleCli(Path binary, Path config, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(binary.toString(), "-c", config.toString()));
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).redirectErrorStream(false).start();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String err = new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, process.waitFor(), "headscale " + String.join(" ", args) + ": " + out + err);
        return out;
    }

    private Map<String, Long> headscaleNodeIds(Path binary, Path config) throws Exception {
        Map<String, Long> ids = new LinkedHashMap<>();
        for (JsonNode node : JSON.readTree(headscaleCli(binary, config, "nodes", "list", "-o", "json"))) {
            ids.put(node.path("given_name").asString(), node.path("id").asLong());
        }
        return ids;
    }

    private static String serverKey(URI url) throws Exception {
        HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                url.resolve("/key?v=100")).build(), HttpResponse.BodyHandlers.ofString());
        return JSON.readTree(response.body()).path("publicKey").asString();
    }

    /** bench/install-headscale.sh builds the pinned release once (it needs Go and the module proxy the first time). */
    private static Path headscaleBinary() throws Exception {
        Path script = ClientVersions.repositoryRoot().resolve("bench/install-headscale.sh");
        Process process = new ProcessBuilder(script.toString()).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        String path = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        assertEquals(0, process.waitFor(), "bench/install-headscale.sh failed");
        return Path.of(path);
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }
}
