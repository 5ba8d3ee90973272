package io.meshcontrol.server.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.meshcontrol.core.auth.Caller;
import io.meshcontrol.core.key.MachinePrivateKey;
import io.meshcontrol.core.key.NodePrivateKey;
import io.meshcontrol.core.model.Role;
import io.meshcontrol.core.state.Registrations;
import io.meshcontrol.core.state.Users;
import io.meshcontrol.core.testing.AuthKey;
import io.meshcontrol.core.testing.Machine;
import io.meshcontrol.server.testing.TestServer;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code {metrics_listen_addr}/debug/}: the pages' content, and the access rules of "Authentication" item 7 over real
 * connections: from this machine's own non-loopback address the server sees a remote peer.
 */
class DebugPagesTest {

    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @TempDir
    Path folder;

    @Test
    void pagesShowRuntimeNodesRegistrationsPolicyFiltersDerpMapAndStreams() throws Exception {
        try (TestServer server = TestServer.start(folder)) {
            var network = server.network;
            network.policies().set(Caller.localAdmin(), """
                    {"acls": [{"action": "accept", "src": ["*"], "dst": ["*:22"]}],
                     "ssh": [{"action": "accept", "src": ["autogroup:member"], "dst": ["autogroup:self"],
                              "users": ["root"]}]}""", null);
            network.users().create(Caller.localAdmin(), new Users.NewUser("odin", null, null, Role.MEMBER));
            var laptop = Machine.named("laptop").join(network, AuthKey.forUser("odin").create(network));
            network.pendingLogins().start(new Registrations.Request(MachinePrivateKey.generate().publicKey(),
                    NodePrivateKey.generate().publicKey(), "waiting-box", "{}"), false);
            String base = "http://127.0.0.1:" + server.server.metricsAddress().orElseThrow().getPort();

            JsonNode index = json(get(base + "/debug/?format=json", Map.of()));
            assertEquals(io.meshcontrol.core.BuildInfo.version(),
                    index.get("runtime").get("version").asString());
            assertTrue(index.get("runtime").get("heapUsedBytes").asLong() > 0);
            assertTrue(index.get("runtime").get("threads").asInt() > 0);
            for (String page : new String[] {"/debug/runtime/", "/debug/nodes/", "/debug/policy/", "/debug/filters/",
                    "/debug/derp-map/", "/debug/map-sessions/", "/debug/routes/", "/debug/derp-clients/"}) {
                assertTrue(index.get("pages").has(page), page);
            }
            HttpResponse<String> html = get(base + "/debug/", Map.of());
            assertTrue(html.headers().firstValue("Content-Type").orElseThrow().startsWith("text/html"));
            assertTrue(html.body().contains("<a href=\"/debug/filters/\">"), html.body());

            JsonNode nodes = json(get(base + "/debug/nodes/?format=json", Map.of()));
            assertEquals(1, nodes.get("total").asInt());
            assertEquals("laptop", nodes.get("nodes").get(0).get("name").asString());
            assertEquals(laptop.nodeKey().toText(), nodes.get("nodes").get(0).get("nodeKey").asString());
            assertEquals("waiting-box", nodes.get("pendingRegistrations").get(0).get("hostname").asString());
            assertFalse(get(base + "/debug/nodes/", Map.of()).body().isEmpty());

            JsonNode policy = json(get(base + "/debug/policy/?format=json", Map.of()));
            assertEquals("database", policy.get("source").asString());
            assertTrue(policy.get("text").asString().contains("autogroup:self"));
            assertTrue(get(base + "/debug/policy/", Map.of()).body().contains("<pre>"));

            JsonNode filters = json(get(base + "/debug/filters/?format=json&node=" + laptop.id(), Map.of()));
            assertEquals(1, filters.size());
            JsonNode rule = filters.get(0).get("packetFilter").get(0);
            assertEquals(22, rule.get("DstPorts").get(0).get("Ports").get("First").asInt());
            assertEquals("root", filters.get(0).get("sshPolicy").get("rules").get(0).get("sshUsers").get("root")
                    .asString());
            assertEquals(400, get(base + "/debug/filters/?node=laptop", Map.of()).statusCode());
            assertEquals(0, json(get(base + "/debug/filters/?format=json&node=999", Map.of())).size());

            assertTrue(json(get(base + "/debug/derp-map/?format=json", Map.of())).has("Regions"));
            JsonNode streams = json(get(base + "/debug/map-sessions/?format=json", Map.of()));
            assertEquals(0, streams.get("streams").size());
            assertTrue(streams.has("flushScheduled") && streams.has("longestWait"));
        }
    }

    @Test
    void fromAnotherAddressOnlyMetricsAnswerWithoutKeyOrAllowedAddress() throws Exception {
        InetAddress own = ownNonLoopbackAddress();
        try (TestServer server = TestServer.in(folder).set("metrics_listen_addr", "0.0.0.0:0").start()) {
            String base = base(own, server);
            assertEquals(200, get(base + "/metrics", Map.of()).statusCode());
            assertEquals(403, get(base + "/debug/", Map.of()).statusCode());
            assertEquals(403, get(base + "/debug/nodes/?format=json", Map.of()).statusCode());
            assertEquals(403, get(base + "/debug/derp-clients/", Map.of()).statusCode());
            assertEquals(403, get(base + "/debug", Map.of()).statusCode());
            assertEquals(403, get(base + "/elsewhere", Map.of()).statusCode());
            assertEquals(200, get("http://127.0.0.1:" + port(server) + "/debug/", Map.of()).statusCode());
        }
    }

    @Test
    void theDebugKeyFromItsFileOpensThePagesFromAnywhere() throws Exception {
        InetAddress own = ownNonLoopbackAddress();
        Path keyFile = Files.writeString(folder.resolve("debug.key"), "k3y-for-debugging\n");
        try (TestServer server = TestServer.in(folder).set("metrics_listen_addr", "0.0.0.0:0")
                .environment("MESH_DEBUG_KEY_PATH", keyFile.toString()).start()) {
            String base = base(own, server);
            assertEquals(200, get(base + "/debug/?debugkey=k3y-for-debugging", Map.of()).statusCode());
            assertEquals(200, get(base + "/debug/nodes/?format=json&debugkey=k3y-for-debugging",
                    Map.of("X-Forwarded-For", "198.51.100.1")).statusCode());
            assertEquals(403, get(base + "/debug/?debugkey=k3y", Map.of()).statusCode());
            assertEquals(403, get(base + "/debug/", Map.of()).statusCode());
        }
    }

    @Test
    void theExtraAddressIsAllowedUnlessTheRequestWasForwarded() throws Exception {
        InetAddress own = ownNonLoopbackAddress();
        try (TestServer server = TestServer.in(folder).set("metrics_listen_addr", "0.0.0.0:0")
                .environment("MESH_ALLOW_DEBUG_IP", own.getHostAddress()).start()) {
            String base = base(own, server);
            assertEquals(200, get(base + "/debug/", Map.of()).statusCode());
            assertEquals(403, get(base + "/debug/", Map.of("X-Forwarded-For", "198.51.100.1")).statusCode());
            assertEquals(200, get(base + "/metrics", Map.of("X-Forwarded-For", "198.51.100.1")).statusCode());
        }
    }

    /** Issue 33: a proxy on this machine would otherwise pass everyone's requests through as loopback ones. */
    @Test
    void aForwardedRequestNeedsTheKeyEvenFromLoopback() throws Exception {
        Path keyFile = Files.writeString(folder.resolve("debug.key"), "k3y-for-debugging\n");
        try (TestServer server = TestServer.in(folder).environment("MESH_DEBUG_KEY_PATH", keyFile.toString())
                .start()) {
            String base = "http://127.0.0.1:" + port(server);
            for (Map<String, String> forwarding : List.of(Map.of("X-Forwarded-For", "198.51.100.1"),
                    Map.of("Forwarded", "for=198.51.100.1"), Map.of("X-Real-IP", "198.51.100.1"))) {
                assertEquals(403, get(base + "/debug/", forwarding).statusCode(), forwarding.toString());
                assertEquals(403, get(base + "/debug/nodes/?format=json", forwarding).statusCode());
                assertEquals(200, get(base + "/debug/?debugkey=k3y-for-debugging", forwarding).statusCode());
                assertEquals(200, get(base + "/metrics", forwarding).statusCode());
            }
            assertEquals(200, get(base + "/debug/", Map.of()).statusCode());
        }
    }

    @Test
    void anotherExtraAddressDoesNotOpenThePages() throws Exception {
        InetAddress own = ownNonLoopbackAddress();
        try (TestServer server = TestServer.in(folder).set("metrics_listen_addr", "0.0.0.0:0")
                .environment("MESH_ALLOW_DEBUG_IP", "198.51.100.9").start()) {
            assertEquals(403, get(base(own, server) + "/debug/", Map.of()).statusCode());
        }
    }

    /** An IPv4 address of this machine that is not loopback: connections from it are remote to the server. */
    private static InetAddress ownNonLoopbackAddress() throws Exception {
        Optional<InetAddress> found = NetworkInterface.networkInterfaces()
                .filter(i -> {
                    try {
                        return i.isUp() && !i.isLoopback();
                    } catch (java.net.SocketException e) {
                        return false;
                    }
                })
                .flatMap(NetworkInterface::inetAddresses)
                .filter(a -> a instanceof Inet4Address && !a.isLoopbackAddress() && !a.isLinkLocalAddress())
                .findFirst();
        assumeTrue(found.isPresent(), "this machine has no non-loopback IPv4 address");
        return found.orElseThrow();
    }

    private static int port(TestServer server) {
        return server.server.metricsAddress().orElseThrow().getPort();
    }

    private static String base(InetAddress own, TestServer server) {
        return "http://" + own.getHostAddress() + ":" + port(server);
    }

    private static HttpResponse<String> get(String url, Map<String, String> headers) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url));
        headers.forEach(request::header);
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static JsonNode json(HttpResponse<String> response) {
        assertEquals(200, response.statusCode(), response.body());
        return JsonMapper.builder().build().readTree(response.body());
    }
}
