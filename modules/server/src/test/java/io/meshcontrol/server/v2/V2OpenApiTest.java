package io.meshcontrol.server.v2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.core.auth.Caller;
import io.meshcontrol.core.model.Node;
import io.meshcontrol.core.testing.AuthKey;
import io.meshcontrol.core.testing.Machine;
import io.meshcontrol.server.http.ApiStyles;
import io.meshcontrol.server.http.Route;
import io.meshcontrol.server.testing.ApiContract;
import io.meshcontrol.server.testing.TestServer;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * {@code /api/v2/openapi.json} against the server: valid OpenAPI 3.1 with closed answer schemas, exactly the served
 * {@code /api/v2} routes, each with the schemas of its bodies, and real answers of representative operations (the
 * error shape included) matching it. See docs/api.md, "How the contract is checked". One server serves every test:
 * none depends on what another changed.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class V2OpenApiTest {

    @TempDir
    static Path folder;
    TestServer server;
    VendorCalls api;
    ApiContract contract;
    JsonNode document;
    Node laptop;
    /** What the exchanges showed wrong, all of them, so that one run lists every drift. */
    private final List<String> faults = new ArrayList<>();

    @BeforeAll
    void start() {
        // a webhook's URL must resolve; loopback does once allowed (nothing listens there)
        server = TestServer.in(folder).set("egress.allow_loopback_targets", "true").start();
        HttpResponse<String> served = server.request("GET", "/api/v2/openapi.json", null, null);
        assertEquals(200, served.statusCode(), served.body());
        assertTrue(served.headers().firstValue("Content-Type").orElse("").startsWith("application/json"));
        contract = ApiContract.of(served.body());
        document = VendorCalls.JSON.readTree(served.body());
        api = VendorCalls.allAccess(server);
        VendorCalls.createUser(server, "odin", "odin@example.com");
        String key = AuthKey.forUser("odin").reusable().create(server.network);
        laptop = Machine.named("laptop").advertising("10.1.0.0/16").join(server.network, key);
        server.network.policies().set(Caller.localAdmin(), """
                {"tagOwners": {"tag:server": ["odin@example.com"]},
                 "acls": [{"action": "accept", "src": ["odin@example.com"], "dst": ["*:22"]}]}""", null);
    }

    @AfterAll
    void stop() {
        server.close();
    }

    @Test
    void documentIsValidOpenApi31WithClosedAnswers() {
        assertEquals(List.of(), contract.documentProblems());
        assertEquals(Set.of(), contract.openResponseSchemas());
    }

    @Test
    void everyServedV2RouteIsDocumentedAndNothingElse() {
        Set<String> routes = new TreeSet<>();
        for (Route route : server.server.routes().list()) {
            if (route.template().startsWith(ApiStyles.V2_PREFIX)) {
                routes.add(route.method() + " " + route.template());
            }
        }
        assertTrue(routes.size() > 60, "all of /api/v2: " + routes);
        assertEquals(routes, contract.operations(), "every served route documented, every documented one served");
    }

    /**
     * Every operation that does something answers with a documented body (a schema made from its record), and every
     * one that reads a JSON body documents its schema; only the unsupported ones answer nothing but refusals.
     */
    @Test
    void everyOperationCarriesTheSchemasOfItsBodies() {
        JsonNode paths = document.path("paths");
        List<String> missing = new ArrayList<>();
        for (Map.Entry<String, JsonNode> path : paths.properties()) {
            for (Map.Entry<String, JsonNode> entry : path.getValue().properties()) {
                String operation = entry.getKey().toUpperCase() + " " + path.getKey();
                JsonNode op = entry.getValue();
                if (op.path("summary").asString().startsWith("Unsupported")) {
                    continue;
                }
                boolean answers = false;
                for (Map.Entry<String, JsonNode> response : op.path("responses").properties()) {
                    if (response.getKey().startsWith("2")) {
                        answers = response.getValue().path("content").properties().stream()
                                .allMatch(media -> media.getValue().has("schema"))
                                && !response.getValue().path("content").isEmpty();
                    }
                }
                if (!answers) {
                    missing.add(operation + ": no documented answer body");
                }
                for (String refusal : List.of("400", "404")) {
                    if (!op.path("responses").has(refusal)) {
                        missing.add(operation + ": no " + refusal);
                    }
                }
            }
        }
        assertEquals(List.of(), missing);
        // the records' fields, by their JSON names, and only the conditional ones optional
        JsonNode device = document.path("components").path("schemas").path("Device");
        assertTrue(device.path("properties").has("isExternal") && device.path("properties").has("nodeId"));
        assertFalse(texts(device.path("required")).contains("lastSeen"), "sent only while the device is offline");
        assertTrue(texts(device.path("required")).contains("connectedToControl"));
        assertEquals("#/components/schemas/NameRequest", paths.path("/api/v2/device/{id}/name").path("post")
                .path("requestBody").path("content").path("application/json").path("schema").path("$ref").asString());
        assertEquals(List.of("devices:core"), texts(paths.path("/api/v2/device/{id}/name").path("post")
                .path("security").get(0).path("bearer")));
    }

    @Test
    void answersOfRepresentativeOperationsMatchTheDocument() {
        String device = "/device/" + laptop.id();
        call("GET", "/tailnet/-/devices", null, 200);
        call("GET", "/tailnet/-/devices?fields=all", null, 200);
        call("GET", device + "?fields=all", null, 200);
        call("POST", device + "/name", "{\"name\":\"workstation\"}", 200);
        call("POST", device + "/routes", "{\"routes\":[\"10.1.0.0/16\"]}", 200);
        call("POST", device + "/attributes/custom:tier", "{\"value\":3,\"comment\":\"\"}", 200);
        call("GET", device + "/attributes", null, 200);
        call("GET", "/device/999999", null, 404);
        // a body that breaks the request schema is not checked against it, only the refusal is
        check("POST", device + "/name", null, api.post(device + "/name", "{\"nmae\":\"x\"}"), 400);
        String created = call("POST", "/tailnet/-/keys",
                "{\"capabilities\":{\"devices\":{\"create\":{\"reusable\":true,\"tags\":[\"tag:server\"]}}},"
                        + "\"expirySeconds\":3600}", 200);
        call("GET", "/tailnet/-/keys/" + VendorCalls.JSON.readTree(created).path("id").asString(), null, 200);
        call("POST", "/tailnet/-/keys", "{\"keyType\":\"client\",\"scopes\":[\"all:read\"],\"tags\":[]}", 200);
        call("GET", "/tailnet/-/keys", null, 200);
        call("POST", "/tailnet/-/dns/configuration", """
                {"nameservers":[{"address":"9.9.9.9","useWithExitNode":true}],
                 "splitDNS":{"corp.example":[{"address":"10.0.0.53"}]},"searchPaths":["corp.example"],
                 "preferences":{"magicDNS":true}}""", 200);
        call("PATCH", "/tailnet/-/dns/split-dns", "{\"corp.example\":null,\"lab.example\":[\"10.0.0.54\"]}", 200);
        call("GET", "/tailnet/-/dns/searchpaths", null, 200);
        call("GET", "/tailnet/-/settings", null, 200);
        call("GET", "/tailnet/-/users", null, 200);
        String hook = VendorCalls.JSON.readTree(call("POST", "/tailnet/-/webhooks",
                "{\"endpointUrl\":\"http://127.0.0.1:9/hook\",\"subscriptions\":[\"nodeCreated\"]}", 200))
                .path("endpointId").asString();
        call("POST", "/webhooks/" + hook + "/rotate", null, 200);
        call("POST", "/webhooks/" + hook + "/test", null, 202);
        call("GET", "/tailnet/-/webhooks", null, 200);
        call("PUT", "/tailnet/-/vip-services/svc:web", "{\"ports\":[\"tcp:443\"],\"tags\":[\"tag:server\"],"
                + "\"annotations\":{\"owner\":\"ops\"}}", 200);
        call("POST", "/tailnet/-/posture/integrations", "{\"provider\":\"kolide\",\"clientSecret\":\"s\"}", 200);
        call("GET", "/tailnet/-/posture/integrations", null, 200);
        call("PUT", "/tailnet/-/logging/configuration/stream", "{\"destinationType\":\"http\","
                + "\"url\":\"https://logs.example/in\"}", 200);
        call("GET", "/tailnet/-/logging/configuration/stream/status", null, 200);
        call("GET", "/tailnet/-/logging/network?start=2026-01-01T00:00:00Z&end=2026-01-02T00:00:00Z", null, 501);
        call("GET", "/tailnet/-/acl?details=1", null, 200);
        call("POST", "/tailnet/-/acl/validate", "[{\"src\":\"odin@example.com\",\"accept\":[\"1.2.3.4:80\"]}]", 200);
        call("POST", "/tailnet/-/acl/preview?type=user&previewFor=odin@example.com", null, 200);
        call("DELETE", device, null, 200);
        HttpResponse<String> forbidden = VendorCalls.scoped(server, "dns:read").get("/tailnet/-/users");
        check("GET", "/tailnet/-/users", null, forbidden, 403);
        assertEquals(List.of(), faults);
    }

    /** The schemas are closed: an answer with a field its record lacks, or without a required one, fails. */
    @Test
    void theDocumentRefusesAnAnswerItDoesNotDescribe() {
        String settings = api.get("/tailnet/-/settings").body();
        contract.check(exchange("GET", "/tailnet/-/settings", settings));
        assertThrows(AssertionError.class, () -> contract.check(exchange("GET", "/tailnet/-/settings",
                settings.replace("{", "{\"extra\":1,"))));
        assertThrows(AssertionError.class, () -> contract.check(exchange("GET", "/tailnet/-/settings",
                settings.replaceAll("\"httpsEnabled\":false,?", ""))));
    }

    private static ApiContract.Exchange exchange(String method, String path, String body) {
        return new ApiContract.Exchange(method, "/api/v2" + path, null, 200,
                Map.of("Content-Type", "application/json"), body);
    }

    /** Sends one request as the vendor's client does and checks the exchange; answers the body. */
    private String call(String method, String path, String body, int status) {
        HttpResponse<String> response = api.send(method, path, body,
                body == null ? Map.of() : Map.of("Content-Type", "application/json"));
        check(method, path, body, response, status);
        return response.body();
    }

    private void check(String method, String path, String body, HttpResponse<String> response, int status) {
        if (response.statusCode() != status) {
            faults.add(method + " " + path + " answered " + response.statusCode() + ", not " + status + ": "
                    + response.body());
            return;
        }
        try {
            contract.check(ApiContract.Exchange.of(method, "/api/v2" + path, body, response));
        } catch (AssertionError e) {
            faults.add(e.getMessage());
        }
    }

    private static List<String> texts(JsonNode array) {
        List<String> texts = new ArrayList<>();
        array.forEach(item -> texts.add(item.asString()));
        return texts;
    }
}
