package io.meshcontrol.server.v2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.api.ApiJson;
import io.meshcontrol.core.testing.TestNetwork;
import io.meshcontrol.server.http.ApiStyle;
import io.meshcontrol.server.http.ApiStyles;
import io.meshcontrol.server.http.Authenticator;
import io.meshcontrol.server.http.ProblemWriter;
import io.meshcontrol.server.http.Reply;
import io.meshcontrol.server.http.RequestPipeline;
import io.meshcontrol.server.http.Routes;
import io.meshcontrol.server.metrics.HttpMetrics;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.undertow.Undertow;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code /api/v2} in the shared request pipeline: the vendor's error body on every refusal (its clients decode
 * nothing else), both credential forms its clients send, and the network segment rule.
 */
class VendorApiStyleTest {

    private final JsonMapper json = ApiJson.mapper(true);
    private final HttpClient client = HttpClient.newHttpClient();
    @TempDir
    Path folder;
    private TestNetwork network;
    private ExecutorService workers;
    private Undertow undertow;
    private String base;
    private String apiKey;

    @BeforeEach
    void start() {
        network = new TestNetwork(folder);
        apiKey = network.network.apiKeys().create(network.admin, null, List.of(), "test", null).secret();
        Routes routes = new Routes();
        V2Routes v2 = new V2Routes(routes, network.network.tailnetId());
        v2.tailnet("GET", "/probe", request -> Reply.ok(Map.of("caller", request.caller().actor())));
        v2.global("GET", "/broken", request -> {
            throw new IllegalStateException("broken on purpose");
        });
        routes.add("GET", "/api/v1/probe", request -> Reply.ok(Map.of("caller", request.caller().actor())));
        workers = Executors.newVirtualThreadPerTaskExecutor();
        Authenticator credentials = new Authenticator(network.network.apiKeys(), network.network.oauthClients(), null);
        ApiStyles styles = new ApiStyles(new ApiStyle(new ProblemWriter(json), credentials),
                new ApiStyle(new VendorErrors(json), new VendorAuthentication(credentials)));
        undertow = Undertow.builder().addHttpListener(0, "127.0.0.1")
                .setHandler(routes.build(new RequestPipeline(new HttpMetrics(new PrometheusRegistry()), workers),
                        styles, json, "test"))
                .build();
        undertow.start();
        int port = ((InetSocketAddress) undertow.getListenerInfo().getFirst().getAddress()).getPort();
        base = "http://127.0.0.1:" + port;
    }

    @AfterEach
    void stop() {
        undertow.stop();
        workers.shutdownNow();
    }

    @Test
    void anApiKeyIsTakenAsTheBasicUserNameWithAnEmptyPasswordAndAsBearer() throws Exception {
        String basic = "Basic " + Base64.getEncoder().encodeToString((apiKey + ":").getBytes(StandardCharsets.UTF_8));
        assertEquals(200, get("/api/v2/tailnet/-/probe", basic).statusCode());
        assertEquals(200, get("/api/v2/tailnet/-/probe", "Bearer " + apiKey).statusCode());
    }

    @Test
    void refusalsCarryTheVendorsMessageBody() throws Exception {
        HttpResponse<String> missing = get("/api/v2/tailnet/-/probe", null);
        assertEquals(401, missing.statusCode());
        assertMessage(missing, "missing credential");
        String wrongKey = "Basic " + Base64.getEncoder().encodeToString("svckey-api-nope:".getBytes(StandardCharsets.UTF_8));
        assertMessage(get("/api/v2/tailnet/-/probe", wrongKey), "invalid, expired or revoked");
        HttpResponse<String> unknown = get("/api/v2/no/such/thing", "Bearer " + apiKey);
        assertEquals(404, unknown.statusCode());
        assertMessage(unknown, "no such endpoint");
        HttpResponse<String> broken = get("/api/v2/broken", "Bearer " + apiKey);
        assertEquals(500, broken.statusCode());
        JsonNode body = assertMessage(broken, "error id");
        assertTrue(body.path("message").asString().contains(body.path("errorId").asString()));
    }

    @Test
    void theNetworkSegmentIsDashOrThisNetworksId() throws Exception {
        String bearer = "Bearer " + apiKey;
        assertEquals(200, get("/api/v2/tailnet/" + network.network.tailnetId() + "/probe", bearer).statusCode());
        HttpResponse<String> other = get("/api/v2/tailnet/example.com/probe", bearer);
        assertEquals(404, other.statusCode());
        assertMessage(other, "tailnet not found: example.com");
    }

    @Test
    void v1KeepsProblemDetailsAndBearerOnly() throws Exception {
        HttpResponse<String> unknown = get("/api/v1/no-such-thing", "Bearer " + apiKey);
        assertEquals(404, unknown.statusCode());
        assertEquals("application/problem+json", unknown.headers().firstValue("Content-Type").orElseThrow());
        String basic = "Basic " + Base64.getEncoder().encodeToString((apiKey + ":").getBytes(StandardCharsets.UTF_8));
        assertEquals(401, get("/api/v1/probe", basic).statusCode());
    }

    private JsonNode assertMessage(HttpResponse<String> response, String expected) {
        assertEquals("application/json", response.headers().firstValue("Content-Type").orElseThrow());
        JsonNode body = json.readTree(response.body());
        assertTrue(body.path("message").asString().contains(expected), response.body());
        return body;
    }

    private HttpResponse<String> get(String path, String authorization) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + path));
        if (authorization != null) {
            request.header("Authorization", authorization);
        }
        return client.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }
}
