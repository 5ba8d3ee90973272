package io.meshcontrol.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.api.ApiJson;
import io.meshcontrol.api.ApiKeyRequest;
import io.meshcontrol.api.AuthDecisionRequest;
import io.meshcontrol.api.AuthRegisterRequest;
import io.meshcontrol.api.NodeRequest;
import io.meshcontrol.api.AppRequest;
import io.meshcontrol.api.OAuthClientRequest;
import io.meshcontrol.api.PolicyDocument;
import io.meshcontrol.api.PolicyPreviewRequest;
import io.meshcontrol.api.WebhookRequest;
import io.meshcontrol.api.LogStreamRequest;
import io.meshcontrol.api.PostureIntegrationRequest;
import io.meshcontrol.api.ServiceRequest;
import io.meshcontrol.api.PreAuthKeyRequest;
import io.meshcontrol.api.RoutesRequest;
import io.meshcontrol.api.SettingsView;
import io.meshcontrol.api.UserRequest;
import io.meshcontrol.core.key.MachinePrivateKey;
import io.meshcontrol.core.key.NodePrivateKey;
import io.meshcontrol.core.model.Node;
import io.meshcontrol.core.netmap.AccessControl;
import io.meshcontrol.core.state.Registrations;
import io.meshcontrol.core.state.SshChecks;
import io.meshcontrol.core.state.Users;
import io.meshcontrol.server.docs.OpenApiDocument;
import io.meshcontrol.server.http.ApiStyles;
import io.meshcontrol.server.http.Route;
import io.meshcontrol.server.http.Routes;
import io.meshcontrol.server.testing.ApiContract;
import io.meshcontrol.server.testing.TestServer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The {@code /api/v1} OpenAPI document against the server: valid OpenAPI 3.1, exactly the served routes, and every
 * documented operation and status shown by a real exchange whose bodies match the documented schemas.
 * See docs/api.md, "How the contract is checked".
 */
class ApiContractTest {

    /** Documented answers no exchange here provokes, each with the reason; keep this list short. */
    private static final Map<String, String> NOT_PROVOKED = Map.of(
            "GET /health 503", "needs a database that stops answering",
            "GET /ssh/check/{authId} 302", "needs an OIDC issuer (SshCheckLoginTest follows the redirect)",
            "GET /register/{authId} 302", "needs an OIDC issuer (OidcLoginTest and RegisterPageTest follow it)",
            "GET /register/{authId} 502", "needs an OIDC issuer that does not answer (OidcLoginTest)",
            "GET /api/v1/events 200", "a stream that stays open: EventStreamTest follows it",
            "GET /api/v1/events 503", "needs 1,000 streams open at once");

    private static final JsonMapper JSON = ApiJson.mapper(false);

    @TempDir
    Path folder;
    private final ApiContract contract = ApiContract.of(OpenApiDocument.text("test"));
    private TestServer server;
    /** An all-access key narrowed to a scope no {@code /api/v1} operation needs. */
    private String powerless;
    /** What the exchanges showed wrong, all of them, so that one run lists every drift. */
    private final List<String> faults = new ArrayList<>();

    @Test
    void documentIsValidOpenApi31() {
        assertEquals(List.of(), contract.documentProblems());
    }

    @Test
    void responseSchemasAreClosed() {
        assertEquals(Set.of(), contract.openResponseSchemas());
    }

    @Test
    void documentedOperationsAreTheServedRoutes() {
        // every 401 is probed from one address: no back-off here (CredentialBackoffTest shows it)
        try (TestServer served = TestServer.in(folder).set("listener.failed_credentials_per_address", "0").start()) {
            Set<String> routes = new TreeSet<>();
            for (Route route : served.server.routes().list()) {
                // /api/v2 has its own documentation; the console's files and session are not an API (docs/console.md)
                if (!route.template().startsWith(ApiStyles.V2_PREFIX) && !route.template().startsWith("/admin")) {
                    routes.add(route.method() + " " + route.template());
                }
            }
            assertEquals(routes, contract.operations(), "every served route documented, every documented one served");
        }
    }

    @Test
    void theCheckerRefusesWhatTheDocumentDoesNotSay() {
        ApiContract small = ApiContract.of("""
                openapi: 3.1.0
                info: {title: t, version: "1"}
                paths:
                  /thing/{id}:
                    get:
                      responses:
                        "200":
                          description: ok
                          content:
                            application/json:
                              schema: {$ref: "#/components/schemas/Thing"}
                        "204": {description: nothing}
                        "404":
                          description: no such thing
                          content:
                            application/problem+json:
                              schema: {$ref: "#/components/schemas/Problem"}
                    put:
                      requestBody:
                        required: true
                        content:
                          application/json:
                            schema: {$ref: "#/components/schemas/Thing"}
                      responses:
                        "204":
                          description: stored
                          headers:
                            ETag: {required: true, schema: {type: string}}
                components:
                  schemas:
                    Thing:
                      type: object
                      additionalProperties: false
                      required: [id]
                      properties:
                        id: {type: string}
                    Problem:
                      type: object
                      additionalProperties: false
                      required: [status]
                      properties:
                        status: {type: integer}
                """);
        small.check(answer("GET", null, 200, "application/json", "{\"id\":\"7\"}"));
        small.check(answer("GET", null, 404, "application/problem+json", "{\"status\":404}"));
        small.check(new ApiContract.Exchange("PUT", "/thing/7", "{\"id\":\"7\"}", 204, Map.of("etag", "\"1\""), ""));
        List<ApiContract.Exchange> drifted = List.of(
                answer("GET", null, 200, "application/json", "{\"id\":7}"),
                answer("GET", null, 200, "application/json", "{\"id\":\"7\",\"x\":1}"),
                answer("GET", null, 200, "application/json", "{}"),
                answer("GET", null, 200, "application/json", "not json"),
                answer("GET", null, 200, "text/plain", "7"),
                answer("GET", null, 404, "application/problem+json", "{}"),
                answer("GET", null, 500, "application/problem+json", "{\"status\":500}"),
                answer("GET", null, 204, "application/json", "{}"),
                answer("GET", "{}", 204, null, ""),
                answer("PUT", "{\"name\":\"7\"}", 204, null, ""),
                answer("PUT", null, 204, null, ""),
                answer("PUT", "{\"id\":\"7\"}", 204, null, ""),
                new ApiContract.Exchange("GET", "/other", null, 200, Map.of(), "{}"),
                answer("POST", null, 200, "application/json", "{\"id\":\"7\"}"));
        for (ApiContract.Exchange exchange : drifted) {
            assertThrows(AssertionError.class, () -> small.check(exchange), exchange.toString());
        }
        assertEquals(Set.of("GET /thing/{id} 204"), small.unchecked());
        assertTrue(ApiContract.of("""
                openapi: 3.1.0
                info: {title: t, version: "1"}
                paths:
                  /a:
                    get:
                      responses:
                        "200": {description: ok, as it comes}
                """).documentProblems().stream().anyMatch(problem -> problem.contains("/as it comes")),
                "an unquoted comma in a flow mapping makes a stray key, which OpenAPI 3.1 refuses");
    }

    @Test
    void everyDocumentedAnswerIsShownWithTheDocumentedBody() throws Exception {
        try (TestServer plain = TestServer.start(folder.resolve("plain"))) {
            server = plain;
            String admin = server.localToken();
            exerciseServerAndDocs(admin);
            exerciseUsersAndKeys(admin);
            exerciseOAuthClients(admin);
            exerciseWebhooks(admin);
            exerciseApps(admin);
            exerciseLogStreamsPostureAndServices(admin);
            exerciseNodes(admin);
            exerciseAccessRequests(admin);
            exerciseSshChecks(admin);
            exercisePolicyAndSettings(admin);
            exerciseDerpSettings(admin);
            exerciseDns(admin);
            exerciseControlEndpoints();
            probeEveryOperation(admin);
        }
        try (TestServer relay = TestServer.startWithRelay(folder.resolve("relay"), false)) {
            server = relay;
            exerciseRelay();
        }
        assertEquals(List.of(), faults, "exchanges that differ from the document");
        Set<String> unchecked = contract.unchecked();
        unchecked.removeAll(NOT_PROVOKED.keySet());
        assertEquals(Set.of(), unchecked, "documented answers that no exchange showed");
    }

    private void exerciseServerAndDocs(String admin) {
        call("GET", "/version", null, null, 200);
        call("GET", "/health", null, null, 200);
        call("GET", "/api/v1/server", admin, null, 200);
        call("GET", "/api/v1/openapi.yaml", null, null, 200);
        call("GET", "/api/v1/docs", null, null, 200);
        call("GET", "/api/v1/docs/swagger-ui.css", null, null, 200);
        call("GET", "/api/v1/docs/pom.xml", null, null, 404);
    }

    private void exerciseUsersAndKeys(String admin) {
        powerless = JSON.readTree(call("POST", "/api/v1/apikey", admin,
                body(new ApiKeyRequest(null, List.of("device_invites:read"), "probe", null)), 201).body()).get("secret")
                .asString();
        String odin = id(call("POST", "/api/v1/user", admin,
                body(new UserRequest("odin", "Odin", "odin@example.com", "it-admin")), 201));
        String loki = id(call("POST", "/api/v1/user", admin, body(new UserRequest("loki", null, null, null)), 201));
        refused("POST", "/api/v1/user", admin, body(new UserRequest("no spaces", null, null, null)), 400);
        call("POST", "/api/v1/user", admin, body(new UserRequest("odin", null, null, null)), 409);
        call("GET", "/api/v1/user", admin, null, 200);
        call("GET", "/api/v1/user?name=odin", admin, null, 200);
        call("GET", "/api/v1/user?name=nobody", admin, null, 404);
        call("GET", "/api/v1/user/" + odin, admin, null, 200);
        call("PATCH", "/api/v1/user/" + loki, admin, body(UserRequest.role("auditor")), 200);
        refused("PATCH", "/api/v1/user/" + loki, admin, body(UserRequest.rename("no spaces")), 400);
        call("PATCH", "/api/v1/user/" + loki, admin, body(UserRequest.rename("odin")), 409);
        call("DELETE", "/api/v1/user/" + loki, admin, null, 204);
        call("PATCH", "/api/v1/settings", admin, body(new SettingsView(null, true, null)), 200);
        String waiting = Long.toString(server.network.users().logIn(new Users.PersonLogin("https://login.example.com",
                "sub-1", "freya", "", "")).user().id());
        call("POST", "/api/v1/user/" + waiting + "/approve", powerless, null, 403);
        call("POST", "/api/v1/user/" + waiting + "/approve", admin, null, 200);
        call("POST", "/api/v1/user/" + waiting + "/approve", admin, null, 400);
        call("POST", "/api/v1/user/999999/approve", admin, null, 404);
        call("PATCH", "/api/v1/settings", admin, body(new SettingsView(null, false, null)), 200);

        String ci = prefix(call("POST", "/api/v1/apikey", admin,
                body(new ApiKeyRequest("odin", List.of("devices:core:read"), "ci", "720h")), 201));
        call("POST", "/api/v1/apikey", admin, null, 201);
        call("POST", "/api/v1/apikey", admin, body(new ApiKeyRequest(null, null, "forever", "forever")), 400);
        call("POST", "/api/v1/apikey", admin, body(new ApiKeyRequest("nobody", null, "", null)), 404);
        call("GET", "/api/v1/apikey", admin, null, 200);
        call("POST", "/api/v1/apikey/" + ci + "/rotate", powerless, null, 403);
        call("POST", "/api/v1/apikey/" + ci + "/expire", powerless, null, 403);
        String rotated = prefix(call("POST", "/api/v1/apikey/" + ci + "/rotate", admin,
                body(ApiKeyRequest.rotate("24h")), 200));
        call("POST", "/api/v1/apikey/" + rotated + "/expire", admin, null, 200);
        call("POST", "/api/v1/apikey/" + rotated + "/rotate", admin, null, 400);
        call("POST", "/api/v1/apikey/bulk", admin, "{\"action\": \"expire\", \"ids\": [\"" + rotated + "\"]}", 200);
        refused("POST", "/api/v1/apikey/bulk", admin, "{\"action\": \"rotate\", \"ids\": [\"" + rotated + "\"]}", 400);

        String preAuth = JSON.readTree(call("POST", "/api/v1/preauthkey", admin,
                body(new PreAuthKeyRequest("odin", null, true, false, true, "lab", "24h")), 201).body())
                .get("preAuthKey").get("id").asString();
        call("POST", "/api/v1/preauthkey", admin, body(new PreAuthKeyRequest(null, null, null, null, null, null,
                null)), 400);
        call("POST", "/api/v1/preauthkey", admin, body(new PreAuthKeyRequest("nobody", null, null, null, null, null,
                null)), 404);
        call("GET", "/api/v1/preauthkey", admin, null, 200);
        call("GET", "/api/v1/preauthkey/" + preAuth, admin, null, 200);
        call("DELETE", "/api/v1/preauthkey/" + preAuth, admin, null, 204);
        call("POST", "/api/v1/preauthkey/bulk", admin, "{\"action\": \"revoke\", \"ids\": [\"" + preAuth + "\"]}", 200);
        refused("POST", "/api/v1/preauthkey/bulk", admin, "{\"action\": \"revoke\", \"ids\": [\"x\"]}", 400);
        call("GET", "/api/v1/preauthkey/" + preAuth, admin, null, 200);
    }

    private void exerciseLogStreamsPostureAndServices(String admin) {
        call("GET", "/api/v1/log-stream/configuration", admin, null, 404);
        call("PUT", "/api/v1/log-stream/configuration", admin, body(new LogStreamRequest("splunk",
                "https://splunk.example.com/services/collector", null, "token", 10, "gzip")), 200);
        call("PUT", "/api/v1/log-stream/configuration", admin, body(new LogStreamRequest("s3", "https://x.example",
                null, null, null, null)), 400);
        call("GET", "/api/v1/log-stream/configuration", admin, null, 200);
        call("GET", "/api/v1/log-stream/configuration/status", admin, null, 200);
        call("DELETE", "/api/v1/log-stream/configuration", admin, null, 204);

        String kolide = JSON.readTree(call("POST", "/api/v1/posture-integration", admin,
                body(new PostureIntegrationRequest("kolide", null, "client", null, "secret")), 201).body())
                .get("id").asString();
        call("POST", "/api/v1/posture-integration", admin,
                body(new PostureIntegrationRequest("kolide", null, null, null, "secret")), 409);
        call("POST", "/api/v1/posture-integration", admin,
                body(new PostureIntegrationRequest("fleet", null, null, null, "secret")), 400);
        call("GET", "/api/v1/posture-integration", admin, null, 200);
        call("GET", "/api/v1/posture-integration/" + kolide, admin, null, 200);
        call("PATCH", "/api/v1/posture-integration/" + kolide, admin,
                body(new PostureIntegrationRequest(null, null, "other", null, null)), 200);
        call("PATCH", "/api/v1/posture-integration/" + kolide, admin, null, 400);
        call("DELETE", "/api/v1/posture-integration/" + kolide, admin, null, 204);

        call("PUT", "/api/v1/service/svc:web", admin, body(new ServiceRequest("the web", List.of("tcp:443"),
                List.of(), Map.of("owner", "ops"))), 200);
        call("PUT", "/api/v1/service/svc:web", admin, body(new ServiceRequest(null, List.of("tcp:nope"), null,
                null)), 400);
        call("GET", "/api/v1/service", admin, null, 200);
        call("GET", "/api/v1/service/svc:web", admin, null, 200);
        call("DELETE", "/api/v1/service/svc:web", admin, null, 204);
    }

    private void exerciseOAuthClients(String admin) {
        call("PUT", "/api/v1/policy", admin, body(new PolicyDocument("""
                {"tagOwners": {"tag:ci": []}, "acls": [{"action": "accept", "src": ["*"], "dst": ["*:*"]}]}
                """)), 200);
        String client = JSON.readTree(call("POST", "/api/v1/oauth-client", admin, body(new OAuthClientRequest(
                "client", List.of("auth_keys"), List.of("tag:ci"), "ci", null, null, null, null)), 201).body())
                .get("oauthClient").get("id").asString();
        String identity = JSON.readTree(call("POST", "/api/v1/oauth-client", admin, body(new OAuthClientRequest(
                "federated", List.of("auth_keys"), List.of("tag:ci"), "gha", "https://token.actions.example",
                "mesh", "repo:acme/*", Map.of("ref", "refs/heads/main"))), 201).body()).get("oauthClient").get("id")
                .asString();
        call("POST", "/api/v1/oauth-client", admin, body(new OAuthClientRequest("client", List.of("dns"), List.of(),
                null, "https://token.actions.example", null, null, null)), 400);
        call("POST", "/api/v1/oauth-client", powerless, body(new OAuthClientRequest("client", List.of("dns"),
                List.of(), null, null, null, null, null)), 403);
        call("GET", "/api/v1/oauth-client", admin, null, 200);
        call("GET", "/api/v1/oauth-client/" + identity, admin, null, 200);
        call("PATCH", "/api/v1/oauth-client/" + identity, admin, body(OAuthClientRequest.subject("repo:acme/app")), 200);
        call("PATCH", "/api/v1/oauth-client/" + client, admin, body(OAuthClientRequest.subject("x")), 400);
        call("DELETE", "/api/v1/oauth-client/" + client, admin, null, 204);
    }

    private void exerciseWebhooks(String admin) {
        // A private address: allowed by default, and nothing listens there (the test event just fails later).
        JsonNode issued = JSON.readTree(call("POST", "/api/v1/webhook", admin, body(new WebhookRequest(
                "http://10.0.0.1/hook", null, List.of("nodeCreated"))), 201).body());
        String id = issued.get("webhook").get("id").asString();
        call("POST", "/api/v1/webhook", admin, body(new WebhookRequest("http://127.0.0.1/hook", null, List.of())),
                400);
        call("POST", "/api/v1/webhook", powerless, body(new WebhookRequest("http://10.0.0.1/hook", null, List.of())),
                403);
        call("GET", "/api/v1/webhook", admin, null, 200);
        call("GET", "/api/v1/webhook/event-types", admin, null, 200);
        call("GET", "/api/v1/webhook/" + id, admin, null, 200);
        call("PATCH", "/api/v1/webhook/" + id, admin, body(new WebhookRequest(null, null, List.of("userCreated"))),
                200);
        call("PATCH", "/api/v1/webhook/" + id, admin, body(new WebhookRequest(null, null, List.of("nosuch"))), 400);
        call("POST", "/api/v1/webhook/" + id + "/rotate", admin, null, 200);
        call("POST", "/api/v1/webhook/" + id + "/test", admin, null, 202);
        call("GET", "/api/v1/webhook/" + id + "/deliveries", admin, null, 200);
        call("DELETE", "/api/v1/webhook/" + id, admin, null, 204);
    }

    private void exerciseApps(String admin) {
        String app = JSON.readTree(call("POST", "/api/v1/apps", admin, body(new AppRequest("github", "code",
                List.of("github.com", "*.github.io"), List.of("tag:connector"), List.of("192.0.2.0/24"))), 201).body())
                .get("id").asString();
        call("POST", "/api/v1/apps", admin, body(new AppRequest("github", null, List.of("example.com"), null, null)),
                409);
        call("POST", "/api/v1/apps", admin, body(new AppRequest("all", null, List.of(), null, List.of("0.0.0.0/0"))),
                400);
        call("POST", "/api/v1/apps", powerless, body(new AppRequest("x", null, List.of("x.com"), null, null)), 403);
        call("GET", "/api/v1/apps", admin, null, 200);
        call("GET", "/api/v1/app/" + app, admin, null, 200);
        call("PUT", "/api/v1/app/" + app, admin, body(new AppRequest("github", null, List.of("github.com"), null,
                null)), 200);
        call("POST", "/api/v1/apps", admin, body(new AppRequest("gitlab", null, List.of("gitlab.com"), null, null)),
                201);
        call("PUT", "/api/v1/app/" + app, admin, body(new AppRequest("gitlab", null, List.of("github.com"), null,
                null)), 409);
        call("DELETE", "/api/v1/app/" + app, admin, null, 204);
        call("GET", "/api/v1/app/" + app, admin, null, 404);
    }

    private void exerciseNodes(String admin) {
        call("PUT", "/api/v1/policy", admin, body(new PolicyDocument("""
                {"tagOwners": {"tag:server": ["odin@"]}, "acls": [{"action": "accept", "src": ["*"], "dst": ["*:*"]}]}
                """)), 200);
        String key = JSON.readTree(call("POST", "/api/v1/preauthkey", admin,
                body(new PreAuthKeyRequest("odin", null, true, false, false, "", null)), 201).body()).get("secret")
                .asString();
        Node router = join(key, "router",
                "{\"Hostname\":\"router\",\"RoutableIPs\":[\"10.1.0.0/16\",\"0.0.0.0/0\",\"::/0\"]}");
        Node laptop = join(key, "laptop", "{\"Hostname\":\"laptop\"}");
        String id = Long.toString(router.id());
        call("GET", "/api/v1/node", admin, null, 200);
        call("GET", "/api/v1/node/" + id, admin, null, 200);
        call("GET", "/api/v1/node?q=router&os=linux&needsApproval=false&sort=name&order=desc&offset=0&limit=1", admin,
                null, 200);
        call("GET", "/api/v1/node?limit=0", admin, null, 400);
        call("POST", "/api/v1/node/bulk", admin, "{\"action\": \"disable-key-expiry\", \"ids\": [\"" + id + "\", \""
                + laptop.id() + "\"]}", 200);
        refused("POST", "/api/v1/node/bulk", admin, "{\"action\": \"explode\", \"ids\": [\"" + id + "\"]}", 400);
        call("POST", "/api/v1/node/" + id + "/rename", admin, body(new NodeRequest("gateway", null)), 200);
        refused("POST", "/api/v1/node/" + id + "/rename", admin, body(new NodeRequest("not a label!", null)), 400);
        call("POST", "/api/v1/node/" + laptop.id() + "/rename", admin, body(new NodeRequest("gateway", null)), 409);
        call("POST", "/api/v1/node/" + id + "/tags", admin, body(new NodeRequest(null, List.of("tag:server"))), 200);
        call("POST", "/api/v1/node/" + id + "/tags", admin, body(new NodeRequest(null, List.of("tag:nope"))), 400);
        call("GET", "/api/v1/node/" + id + "/routes", admin, null, 200);
        call("GET", "/api/v1/node/" + id + "/peers", admin, null, 200);
        call("GET", "/api/v1/node/" + id + "/packet-filter", admin, null, 200);
        call("POST", "/api/v1/policy/preview", admin, body(new PolicyPreviewRequest(id, null)), 200);
        call("POST", "/api/v1/policy/preview", admin, body(new PolicyPreviewRequest(id, "{\"acls\": 1}")), 400);
        call("POST", "/api/v1/node/" + id + "/routes", admin, body(new RoutesRequest(List.of("10.1.0.0/16"))), 200);
        call("POST", "/api/v1/node/" + id + "/routes", admin, body(new RoutesRequest(List.of("10.1.0.300/16"))), 400);
        call("POST", "/api/v1/node/" + id + "/global-exit-node", admin, "{\"priority\": 5}", 200);
        call("POST", "/api/v1/node/" + id + "/global-exit-node", admin, "{\"enabled\": false}", 200);
        refused("POST", "/api/v1/node/" + laptop.id() + "/global-exit-node", admin, "{}", 400);
        call("POST", "/api/v1/node/" + id + "/key-expiry", admin, "{\"disabled\": true}", 200);
        refused("POST", "/api/v1/node/" + id + "/key-expiry", admin, "{}", 400);
        call("POST", "/api/v1/node/99999/key-expiry", admin, "{\"disabled\": false}", 404);
        call("POST", "/api/v1/node/" + id + "/key-expiry", admin, "{\"disabled\": false}", 200);
        call("POST", "/api/v1/node/" + id + "/expire", admin, null, 200);
        call("POST", "/api/v1/node/" + id + "/suspend", admin, null, 200);
        call("POST", "/api/v1/node/" + id + "/suspend", admin, null, 409);
        call("POST", "/api/v1/node/" + id + "/unsuspend", admin, null, 200);
        call("POST", "/api/v1/node/" + id + "/unsuspend", admin, null, 409);

        call("PATCH", "/api/v1/settings", admin, body(new SettingsView(true, null, null)), 200);
        Node waiting = join(key, "waiting", "{\"Hostname\":\"waiting\"}");
        call("POST", "/api/v1/node/" + waiting.id() + "/approve", admin, null, 200);
        call("POST", "/api/v1/node/" + waiting.id() + "/approve", admin, null, 400);
        call("DELETE", "/api/v1/node/" + laptop.id(), admin, null, 204);

        String authId = server.network.pendingLogins().start(new Registrations.Request(
                MachinePrivateKey.generate().publicKey(), NodePrivateKey.generate().publicKey(), "kiosk", "{}"), false);
        call("GET", "/register/" + authId, null, null, 303);
        call("GET", "/api/v1/auth/register/" + authId, admin, null, 200);
        call("GET", "/api/v1/auth/register/nosuch", admin, null, 404);
        call("POST", "/api/v1/auth/register", admin, body(new AuthRegisterRequest("nobody", authId)), 404);
        call("POST", "/api/v1/auth/register", admin, body(new AuthRegisterRequest("odin", authId, List.of("tag:x"),
                true)), 400);
        call("POST", "/api/v1/auth/register", admin, body(new AuthRegisterRequest("odin", authId)), 200);
        call("GET", "/register/" + authId, null, null, 404);
        call("POST", "/api/v1/auth/register", admin, body(new AuthRegisterRequest("odin", authId)), 404);
        String refusedId = server.network.pendingLogins().start(new Registrations.Request(
                MachinePrivateKey.generate().publicKey(), NodePrivateKey.generate().publicKey(), "stray", "{}"), false);
        call("DELETE", "/api/v1/auth/register/" + refusedId, admin, null, 204);
        call("DELETE", "/api/v1/auth/register/" + refusedId, admin, null, 404);
        String stolenKey = server.network.pendingLogins().start(new Registrations.Request(
                MachinePrivateKey.generate().publicKey(), router.nodeKey(), "thief", "{}"), false);
        call("POST", "/api/v1/auth/register", admin, body(new AuthRegisterRequest("odin", stolenKey)), 409);
        refused("POST", "/api/v1/auth/register", admin, "{\"user\": \"odin\"}", 400);
    }

    private void exerciseAccessRequests(String admin) {
        call("PUT", "/api/v1/policy", admin, body(new PolicyDocument("""
                {"groups": {"group:oncall": ["loki@"]}, "tagOwners": {"tag:server": ["odin@"]},
                 "acls": [{"action": "accept", "src": ["*"], "dst": ["*:*"]}]}
                """)), 200);
        String odinsKey = JSON.readTree(call("POST", "/api/v1/apikey", admin,
                body(new ApiKeyRequest("odin", null, "jit", null)), 201).body()).get("secret").asString();
        String filed = "{\"group\": \"group:oncall\", \"reason\": \"incident\", \"duration\": \"1h\"}";
        String first = id(call("POST", "/api/v1/access-request", odinsKey, filed, 201));
        call("POST", "/api/v1/access-request", odinsKey, filed, 409);
        call("POST", "/api/v1/access-request", odinsKey,
                "{\"group\": \"group:nosuch\", \"reason\": \"x\", \"duration\": \"1h\"}", 400);
        call("POST", "/api/v1/access-request", odinsKey,
                "{\"user\": \"loki\", \"group\": \"group:oncall\", \"reason\": \"x\", \"duration\": \"1h\"}", 403);
        call("POST", "/api/v1/access-request", admin,
                "{\"user\": \"nobody\", \"group\": \"group:oncall\", \"reason\": \"x\", \"duration\": \"1h\"}", 404);
        call("GET", "/api/v1/access-request", odinsKey, null, 200);
        call("GET", "/api/v1/access-request", powerless, null, 400);
        call("GET", "/api/v1/access-request/" + first, odinsKey, null, 200);
        String decide = "/api/v1/access-request/" + first;
        call("POST", decide + "/approve", odinsKey, null, 403);
        call("POST", decide + "/revoke", admin, null, 409);
        call("POST", decide + "/approve", admin, null, 200);
        call("POST", decide + "/approve", admin, null, 409);
        call("POST", decide + "/revoke", admin, null, 200);
        String second = id(call("POST", "/api/v1/access-request", odinsKey, filed, 201));
        call("POST", "/api/v1/access-request/" + second + "/deny", admin, null, 200);
        call("POST", "/api/v1/access-request/" + second + "/deny", admin, null, 409);
    }

    private void exerciseSshChecks(String admin) {
        call("PUT", "/api/v1/policy", admin, body(new PolicyDocument("""
                {"tagOwners": {"tag:server": ["odin@"]}, "acls": [{"action": "accept", "src": ["*"], "dst": ["*:*"]}],
                 "ssh": [{"action": "check", "src": ["autogroup:member"], "dst": ["tag:server"],
                          "users": ["root", "autogroup:nonroot"]}]}
                """)), 200);
        String key = JSON.readTree(call("POST", "/api/v1/preauthkey", admin,
                body(new PreAuthKeyRequest("odin", null, false, false, true, "", null)), 201).body()).get("secret")
                .asString();
        String tagKey = JSON.readTree(call("POST", "/api/v1/preauthkey", admin,
                body(new PreAuthKeyRequest("odin", List.of("tag:server"), false, false, true, "", null)), 201).body())
                .get("secret").asString();
        Node source = join(key, "ssh-source", "{\"Hostname\":\"ssh-source\"}");
        Node target = join(tagKey, "ssh-target", "{\"Hostname\":\"ssh-target\"}");
        String first = held(source, target, "root");
        call("GET", "/ssh/check/" + first, null, null, 200);
        call("GET", "/api/v1/auth/ssh-check", admin, null, 200);
        call("POST", "/api/v1/auth/approve", admin, body(new AuthDecisionRequest(first)), 200);
        call("POST", "/api/v1/auth/approve", admin, body(new AuthDecisionRequest(first)), 409);
        call("GET", "/ssh/check/" + first, null, null, 404);
        String second = held(source, target, "ubuntu");
        call("POST", "/api/v1/auth/reject", admin, body(new AuthDecisionRequest(second)), 200);
        call("POST", "/api/v1/auth/reject", admin, body(new AuthDecisionRequest(second)), 409);
        refused("POST", "/api/v1/auth/approve", admin, "{}", 400);
        refused("POST", "/api/v1/auth/reject", admin, "{\"authId\": \"\"}", 400);
    }

    private String held(Node source, Node target, String localUser) {
        SshChecks.Answer answer = server.network.sshChecks().request(target.machineKey(), source.id(), target.id(),
                localUser, new AccessControl(server.network.policies())::sshCheckPeriod);
        if (!(answer instanceof SshChecks.Answer.Hold(String authId))) {
            throw new AssertionError("not held: " + answer + " " + target);
        }
        return authId;
    }

    private void exercisePolicyAndSettings(String admin) throws IOException {
        call("GET", "/api/v1/settings", admin, null, 200);
        call("GET", "/api/v1/tailnet-lock", admin, null, 200);
        refused("PATCH", "/api/v1/settings", admin, "{\"devicesKeyDurationDays\": 500}", 400);

        HttpResponse<String> policy = call("GET", "/api/v1/policy", admin, null, 200);
        String etag = policy.headers().firstValue("ETag").orElseThrow();
        String text = JSON.readTree(policy.body()).get("policy").asString();
        call("PUT", "/api/v1/policy", admin, body(new PolicyDocument(text)), Map.of("If-Match", etag), 200);
        call("PUT", "/api/v1/policy", admin, body(new PolicyDocument(text)), Map.of("If-Match", "\"stale\""), 412);
        call("PUT", "/api/v1/policy", admin, body(new PolicyDocument("{\"acls\": 1}")), 400);
        call("GET", "/api/v1/audit?action=settings.&limit=5", admin, null, 200);
        refused("GET", "/api/v1/audit?since=yesterday", admin, null, 400);
        call("POST", "/api/v1/policy/check", admin, body(new PolicyDocument(text)), 200);
        call("POST", "/api/v1/policy/check", admin, body(new PolicyDocument("{\"acls\": 1}")), 400);
        Path file = folder.resolve("policy.hujson");
        Files.writeString(file, text);
        server.network.policies().useFile(file);
        call("PUT", "/api/v1/policy", admin, body(new PolicyDocument(text)), 409);
    }

    private void exerciseDerpSettings(String admin) {
        HttpResponse<String> derp = call("GET", "/api/v1/derp", admin, null, 200);
        String etag = derp.headers().firstValue("ETag").orElseThrow();
        call("PUT", "/api/v1/derp", admin, derp.body(), Map.of("If-Match", etag), 200);
        call("PUT", "/api/v1/derp", admin, derp.body(), Map.of("If-Match", "\"stale\""), 412);
        call("PUT", "/api/v1/derp", admin,
                "{\"urls\": [], \"relays\": [{\"regionId\": 900, \"code\": \"x\", \"host\": \"not a host\"}]}", 400);
        call("DELETE", "/api/v1/derp", admin, null, Map.of("If-Match", "\"stale\""), 412);
        call("DELETE", "/api/v1/derp", admin, null, 200);
        call("POST", "/api/v1/derp/refresh", admin, null, 200);
        call("GET", "/api/v1/derp/latency", admin, null, 200);
        call("GET", "/api/v1/overview", admin, null, 200);
    }

    private void exerciseDns(String admin) {
        HttpResponse<String> dns = call("GET", "/api/v1/dns", admin, null, 200);
        call("PUT", "/api/v1/dns", admin, dns.body(), 200);
        call("PUT", "/api/v1/dns", admin, "{\"nameservers\": [{\"address\": \"1.1.1.1\"}], "
                + "\"splitDns\": {\"corp.example\": [{\"address\": \"10.0.0.53\", \"useWithExitNode\": true}]}, "
                + "\"searchPaths\": [\"corp.example\"]}", 200);
        refused("PUT", "/api/v1/dns", admin, "{\"nameservers\": [{\"address\": \"banana\"}]}", 400);
    }

    private void exerciseControlEndpoints() throws IOException {
        call("GET", "/key?v=100", null, null, 200);
        call("GET", "/key", null, null, 400);
        call("POST", "/ts2021", null, null, 400);
        call("GET", "/ts2021", null, null, 400);
        for (String method : List.of("POST", "GET")) {
            raw(method, "/ts2021", "Upgrade: tailscale-control-protocol\r\nConnection: upgrade\r\n"
                    + "X-Tailscale-Handshake: AAAA\r\n", 101);
        }
        String known = JSON.readTree(call("GET", "/api/v1/node", server.localToken(), null, 200).body()).get("nodes")
                .get(0).get("nodeKey").asString();
        call("POST", "/verify", null, "{\"NodePublic\": \"" + known + "\", \"Source\": \"192.0.2.1\"}", 200);
        refused("POST", "/verify", null, "not json", 400);
        for (String path : List.of("/derp", "/derp/probe", "/derp/latency-check", "/bootstrap-dns")) {
            call("GET", path, null, null, 404);
        }
        call("HEAD", "/derp/probe", null, null, 404);
        call("HEAD", "/derp/latency-check", null, null, 404);
    }

    private void exerciseRelay() throws IOException {
        call("GET", "/derp", null, null, 426);
        raw("GET", "/derp", "Upgrade: DERP\r\nConnection: Upgrade\r\n", 101);
        for (String path : List.of("/derp/probe", "/derp/latency-check")) {
            call("GET", path, null, null, 200);
            call("HEAD", path, null, null, 200);
        }
        call("GET", "/bootstrap-dns", null, null, 200);
    }

    /**
     * For every documented operation that documents them: 401 without a credential, 403 with a key whose only scope
     * no operation needs, 404 for unknown path parameters, 400 for an id that is not a number, 413 for a body over
     * the limit.
     */
    private void probeEveryOperation(String admin) {
        for (String operation : contract.operations()) {
            String method = operation.substring(0, operation.indexOf(' '));
            String template = operation.substring(operation.indexOf(' ') + 1);
            String path = template.replace("{id}", "999999").replace("{prefix}", "nosuchprefix")
                    .replace("{clientId}", "nosuchclient").replace("{endpointId}", "nosuchendpoint")
                    .replace("{authId}", "nosuch")
                    .replace("{logType}", "network").replace("{integrationId}", "nosuchintegration")
                    .replace("{name}", "svc:nosuch");
            String body = PROBE_BODIES.get(operation);
            Set<String> statuses = contract.unchecked();
            if (statuses.contains(operation + " 401")) {
                call(method, path, null, body, 401);
            }
            if (statuses.contains(operation + " 403")) {
                call(method, path, powerless, body, 403);
            }
            if (statuses.contains(operation + " 404")) {
                call(method, path, admin, body, 404);
            }
            if (template.contains("{id}") && statuses.contains(operation + " 400")) {
                refused(method, template.replace("{id}", "x"), admin, body, 400);
            }
            if (statuses.contains(operation + " 413")) {
                oversized(method, path, admin);
            }
        }
    }

    /** Valid bodies for the probes of operations that need one, so the probe reaches the check it is after. */
    private static final Map<String, String> PROBE_BODIES = Map.ofEntries(
            Map.entry("POST /api/v1/user", "{\"name\": \"probe\"}"),
            Map.entry("POST /api/v1/preauthkey", "{\"user\": \"odin\"}"),
            Map.entry("PATCH /api/v1/user/{id}", "{\"role\": \"member\"}"),
            Map.entry("POST /api/v1/node/{id}/rename", "{\"name\": \"probe\"}"),
            Map.entry("POST /api/v1/node/bulk", "{\"action\": \"approve\", \"ids\": [\"999999\"]}"),
            Map.entry("POST /api/v1/apikey/bulk", "{\"action\": \"expire\", \"ids\": [\"nosuchprefix\"]}"),
            Map.entry("POST /api/v1/preauthkey/bulk", "{\"action\": \"revoke\", \"ids\": [\"999999\"]}"),
            Map.entry("POST /api/v1/node/{id}/tags", "{\"tags\": []}"),
            Map.entry("POST /api/v1/node/{id}/routes", "{\"routes\": []}"),
            Map.entry("POST /api/v1/node/{id}/key-expiry", "{\"disabled\": true}"),
            Map.entry("PATCH /api/v1/settings", "{}"),
            Map.entry("POST /api/v1/auth/register", "{\"user\": \"odin\", \"authId\": \"nosuch\"}"),
            Map.entry("POST /api/v1/auth/approve", "{\"authId\": \"nosuch\"}"),
            Map.entry("POST /api/v1/auth/reject", "{\"authId\": \"nosuch\"}"),
            Map.entry("PUT /api/v1/policy", "{\"policy\": \"{}\"}"),
            Map.entry("POST /api/v1/policy/check", "{\"policy\": \"{}\"}"),
            Map.entry("POST /api/v1/policy/preview", "{\"node\": \"999999\"}"),
            Map.entry("PUT /api/v1/derp", "{}"),
            Map.entry("PUT /api/v1/dns", "{}"),
            Map.entry("POST /api/v1/oauth-client", "{\"scopes\": [\"dns\"]}"),
            Map.entry("PATCH /api/v1/oauth-client/{clientId}", "{\"description\": \"probe\"}"),
            Map.entry("POST /api/v1/access-request",
                    "{\"group\": \"group:oncall\", \"reason\": \"probe\", \"duration\": \"1h\"}"),
            Map.entry("POST /api/v1/webhook", "{\"url\": \"http://10.0.0.1/hook\"}"),
            Map.entry("PATCH /api/v1/webhook/{endpointId}", "{\"subscriptions\": []}"),
            Map.entry("POST /api/v1/apps", "{\"name\": \"probe\", \"domains\": [\"example.com\"]}"),
            Map.entry("PUT /api/v1/app/{id}", "{\"name\": \"probe\", \"domains\": [\"example.com\"]}"),
            Map.entry("PUT /api/v1/log-stream/{logType}",
                    "{\"destinationType\": \"http\", \"url\": \"https://logs.example.com/in\"}"),
            Map.entry("POST /api/v1/posture-integration", "{\"provider\": \"kolide\", \"clientSecret\": \"s\"}"),
            Map.entry("PATCH /api/v1/posture-integration/{integrationId}", "{\"clientId\": \"probe\"}"),
            Map.entry("PUT /api/v1/service/{name}", "{\"ports\": [\"tcp:443\"]}"));

    private Node join(String authKey, String hostname, String hostinfo) {
        return server.network.registrations().withAuthKey(new Registrations.Request(
                MachinePrivateKey.generate().publicKey(), NodePrivateKey.generate().publicKey(), hostname, hostinfo),
                authKey).node();
    }

    private HttpResponse<String> call(String method, String path, String token, String body, int expected) {
        return call(method, path, token, body, Map.of(), expected);
    }

    /** One request, checked against the contract, with its request body checked against the request schema. */
    private HttpResponse<String> call(String method, String path, String token, String body,
            Map<String, String> headers, int expected) {
        HttpResponse<String> response = server.request(method, path, token, body, headers);
        check(ApiContract.Exchange.of(method, path, body, response), expected);
        return response;
    }

    private void check(ApiContract.Exchange exchange, int expected) {
        try {
            contract.check(exchange);
        } catch (AssertionError e) {
            faults.add(e.getMessage());
        }
        if (exchange.status() != expected) {
            faults.add(exchange.method() + " " + exchange.path() + " answered " + exchange.status() + ", not "
                    + expected + ": " + exchange.responseBody());
        }
    }

    /** A request the request schema itself rules out (to provoke a 400): only the answer is checked. */
    private void refused(String method, String path, String token, String body, int expected) {
        check(ApiContract.Exchange.of(method, path, null, server.request(method, path, token, body)), expected);
    }

    /** A request with headers Java's HTTP client will not send (Upgrade): the status line and headers only. */
    private void raw(String method, String path, String headers, int expected) throws IOException {
        URI url = server.url();
        try (Socket socket = new Socket(url.getHost(), url.getPort())) {
            socket.setSoTimeout(5_000);
            OutputStream out = socket.getOutputStream();
            out.write((method + " " + path + " HTTP/1.1\r\nHost: " + url.getHost() + "\r\nContent-Length: 0\r\n"
                    + headers + "\r\n").getBytes(StandardCharsets.US_ASCII));
            out.flush();
            String head = head(socket.getInputStream());
            int status = Integer.parseInt(head.split(" ", 3)[1]);
            check(new ApiContract.Exchange(method, path, null, status, headers(head), ""), expected);
        }
    }

    /**
     * A request declaring a body over the limit, over a plain socket: the server answers as soon as it sees the
     * length and closes, so an HTTP client still writing the body could fail before reading the answer.
     */
    private void oversized(String method, String path, String token) {
        URI url = server.url();
        try (Socket socket = new Socket(url.getHost(), url.getPort())) {
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            out.write((method + " " + path + " HTTP/1.1\r\nHost: " + url.getHost() + "\r\nAuthorization: Bearer "
                    + token + "\r\nContent-Type: application/json\r\nContent-Length: " + (Routes.MAX_BODY_BYTES + 1)
                    + "\r\nConnection: close\r\n\r\n{\"a\": \"").getBytes(StandardCharsets.US_ASCII));
            out.flush();
            String head = head(socket.getInputStream());
            String body = new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            check(new ApiContract.Exchange(method, path, null, Integer.parseInt(head.split(" ", 3)[1]), headers(head),
                    body), 413);
        } catch (IOException e) {
            faults.add(method + " " + path + " with a body over the limit: " + e);
        }
    }

    /** The header fields of a response head (its first line is the status line). */
    private static Map<String, String> headers(String head) {
        Map<String, String> fields = new HashMap<>();
        head.lines().skip(1).filter(line -> line.contains(":")).forEach(line -> fields.putIfAbsent(
                line.substring(0, line.indexOf(':')).trim(), line.substring(line.indexOf(':') + 1).trim()));
        return fields;
    }

    private static String head(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        while (!head.toString(StandardCharsets.US_ASCII).endsWith("\r\n\r\n")) {
            int b = in.read();
            if (b < 0) {
                break;
            }
            head.write(b);
        }
        return head.toString(StandardCharsets.US_ASCII);
    }

    /** An answer to {@code /thing/7} (the checker's own test). */
    private static ApiContract.Exchange answer(String method, String requestBody, int status, String contentType,
            String body) {
        return new ApiContract.Exchange(method, "/thing/7", requestBody, status,
                contentType == null ? Map.of() : Map.of("Content-Type", contentType), body);
    }

    private static String body(Object value) {
        return JSON.writeValueAsString(value);
    }

    private static String id(HttpResponse<String> response) {
        return JSON.readTree(response.body()).get("id").asString();
    }

    /** The prefix of the key just issued. */
    private static String prefix(HttpResponse<String> response) {
        return JSON.readTree(response.body()).get("apiKey").get("prefix").asString();
    }
}
