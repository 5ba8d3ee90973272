package io.meshcontrol.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.api.ApiJson;
import io.meshcontrol.core.auth.RoleScopes;
import io.meshcontrol.core.auth.Scopes;
import io.meshcontrol.core.model.Role;
import io.meshcontrol.core.state.Nodes;
import io.meshcontrol.core.testing.AuthKey;
import io.meshcontrol.core.testing.Machine;
import io.meshcontrol.core.testing.MovableClock;
import io.meshcontrol.server.docs.OpenApiDocument;
import io.meshcontrol.server.testing.ApiContract;
import io.meshcontrol.server.testing.TestServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The authorisation matrix: every operation of the {@code /api/v1} OpenAPI document against every kind of
 * credential. What each cell must answer follows from the operation's own declared security requirement (its
 * {@code security}, naming the scope it needs, docs/roles-and-scopes.md) and the scopes the credential holds:
 * 401 without a valid credential, 403 when the credential's scopes do not cover the requirement, and anything but
 * 401 or 403 when they do (a dummy but valid body then meets the operation's own checks: 200, 201, 404, 409...).
 * An operation that declares no requirement of its own fails {@link #everyOperationDeclaresItsRequirement}.
 *
 * <p>Cells never touch the credential they are sent with: an operation on a path parameter gets a fresh target per
 * cell (a user, API key, pre-auth key or node made for it), so deleting, expiring or rotating never destroys a
 * credential a later cell uses, whatever the order.
 */
class AuthMatrixTest {

    private static final JsonMapper JSON = ApiJson.mapper(false);
    /** The bearer scheme of the document; its scopes are ours (docs/roles-and-scopes.md). */
    private static final String SCHEME = "bearer";
    /** Scopes unrelated to any {@code /api/v1} operation; the first one not covering a requirement is used. */
    private static final List<String> UNRELATED = List.of("webhooks:read", "log_streaming:read");

    /**
     * Valid bodies for the operations that require one, so that an allowed credential passes the body checks and
     * a refused one is refused for its scopes, not for its body. An operation requiring a body that is not listed
     * fails the matrix.
     */
    private static final Map<String, String> BODIES = Map.ofEntries(
            Map.entry("POST /api/v1/user", "{\"name\": \"probe\"}"),
            Map.entry("PATCH /api/v1/user/{id}", "{\"displayName\": \"Probe\"}"),
            Map.entry("POST /api/v1/preauthkey", "{\"user\": \"holder\"}"),
            Map.entry("POST /api/v1/node/{id}/rename", "{\"name\": \"probe\"}"),
            Map.entry("POST /api/v1/node/bulk", "{\"action\": \"approve\", \"ids\": [\"999999\"]}"),
            Map.entry("POST /api/v1/apikey/bulk", "{\"action\": \"expire\", \"ids\": [\"nosuchprefix\"]}"),
            Map.entry("POST /api/v1/preauthkey/bulk", "{\"action\": \"revoke\", \"ids\": [\"999999\"]}"),
            Map.entry("POST /api/v1/node/{id}/tags", "{\"tags\": []}"),
            Map.entry("POST /api/v1/node/{id}/routes", "{\"routes\": []}"),
            Map.entry("POST /api/v1/node/{id}/key-expiry", "{\"disabled\": true}"),
            Map.entry("PATCH /api/v1/settings", "{}"),
            Map.entry("POST /api/v1/auth/register", "{\"user\": \"holder\", \"authId\": \"nosuch\"}"),
            Map.entry("POST /api/v1/auth/approve", "{\"authId\": \"nosuch\"}"),
            Map.entry("POST /api/v1/auth/reject", "{\"authId\": \"nosuch\"}"),
            Map.entry("PUT /api/v1/policy", "{\"policy\": \"{}\"}"),
            Map.entry("POST /api/v1/policy/check", "{\"policy\": \"{}\"}"),
            Map.entry("POST /api/v1/policy/preview", "{\"node\": \"999999\"}"),
            Map.entry("PUT /api/v1/derp", "{}"),
            Map.entry("PUT /api/v1/dns", "{}"),
            Map.entry("POST /api/v1/apikey", "{\"scopes\": [\"api_access_tokens:read\"]}"),
            Map.entry("POST /api/v1/oauth-client", "{\"scopes\": [\"oauth_keys:read\"]}"),
            Map.entry("PATCH /api/v1/oauth-client/{clientId}", "{\"description\": \"probe\"}"),
            Map.entry("POST /api/v1/apps", "{\"name\": \"probe\", \"domains\": [\"example.com\"]}"),
            Map.entry("PUT /api/v1/app/{id}", "{\"name\": \"probe\", \"domains\": [\"example.org\"]}"),
            Map.entry("POST /api/v1/access-request",
                    "{\"group\": \"group:probe\", \"reason\": \"probe\", \"duration\": \"1h\"}"),
            Map.entry("POST /api/v1/webhook", "{\"url\": \"http://10.0.0.1/hook\"}"),
            Map.entry("PATCH /api/v1/webhook/{endpointId}", "{\"subscriptions\": []}"),
            Map.entry("PUT /api/v1/log-stream/{logType}",
                    "{\"destinationType\": \"http\", \"url\": \"https://logs.example.com/in\"}"),
            Map.entry("POST /api/v1/posture-integration", "{\"provider\": \"kolide\", \"clientSecret\": \"s\"}"),
            Map.entry("PATCH /api/v1/posture-integration/{integrationId}", "{\"clientId\": \"probe\"}"),
            Map.entry("PUT /api/v1/service/{name}", "{\"ports\": [\"tcp:443\"]}"),
            Map.entry("POST /verify", "{\"NodePublic\": \"nodekey:" + "0".repeat(64) + "\"}"));

    @TempDir
    Path folder;
    private final ApiContract contract = ApiContract.of(OpenApiDocument.text("test"));
    private final MovableClock clock = MovableClock.startingAt2026();
    private final AtomicInteger serial = new AtomicInteger();
    private TestServer server;
    private String admin;
    private String nodeKey;
    /** Keys with exactly one explicit scope and no owner, by scope, made when a cell first needs one. */
    private final Map<String, String> scopedKeys = new LinkedHashMap<>();

    /**
     * A kind of credential. {@code scopes} is what it may do (null: it does not authenticate at all); the
     * expected answer of every cell follows from it.
     *
     * @param authorization the whole {@code Authorization} header, or null to send none
     */
    private record Credential(String name, String authorization, List<String> scopes, boolean usersOwn) {

        static Credential refused(String name, String authorization) {
            return new Credential(name, authorization, null, false);
        }

        static Credential bearer(String name, String secret, List<String> scopes) {
            return new Credential(name, "Bearer " + secret, scopes, false);
        }

        /** A key of a user without explicit scopes: it acts with the user's whole role, own machines included. */
        static Credential usersOwn(String name, String secret, List<String> scopes) {
            return new Credential(name, "Bearer " + secret, scopes, true);
        }
    }

    @Test
    void everyOperationDeclaresItsRequirement() {
        List<String> faults = new ArrayList<>();
        for (String operation : contract.operations()) {
            Optional<List<Map<String, List<String>>>> security = contract.declaredSecurity(operation);
            if (security.isEmpty()) {
                faults.add(operation + " declares no security requirement of its own");
            } else if (security.get().size() > 1 || security.get().stream().anyMatch(
                    alternative -> !alternative.keySet().equals(Set.of(SCHEME)))) {
                faults.add(operation + " declares " + security.get() + "; expected [] or [{bearer: [scopes]}]");
            } else if (!security.get().isEmpty()) {
                List<String> scopes = security.get().getFirst().get(SCHEME);
                scopes.stream().filter(scope -> !Scopes.isKnown(scope))
                        .forEach(scope -> faults.add(operation + " needs the unknown scope " + scope));
                if (!contract.documents(operation, 401)) {
                    faults.add(operation + " needs a credential but does not document 401");
                }
                if (!scopes.isEmpty() && !contract.documents(operation, 403)) {
                    faults.add(operation + " needs a scope but does not document 403");
                }
            }
        }
        assertEquals(List.of(), faults);
    }

    @Test
    void everyCredentialGetsTheAnswerItsScopesEarn() {
        try (TestServer started = TestServer.in(folder).clock(clock)
                // this test presents hundreds of bad credentials from one address on purpose
                .set("listener.failed_credentials_per_address", "0").start()) {
            server = started;
            admin = server.localToken();
            List<Credential> credentials = credentials();
            List<String> faults = new ArrayList<>();
            int cells = 0;
            for (String operation : contract.operations()) {
                if (contract.requiresRequestBody(operation) && !BODIES.containsKey(operation)) {
                    faults.add(operation + " requires a body: give it one in BODIES");
                    continue;
                }
                List<String> required = requirement(operation);
                for (Credential credential : credentials(credentials, required)) {
                    cells++;
                    String fault = cell(operation, required, credential);
                    if (fault != null) {
                        faults.add(fault);
                    }
                }
            }
            assertEquals(List.of(), faults, "cells answered otherwise than the declared requirements say");
            assertTrue(cells > contract.operations().size() * 15, "the matrix ran " + cells + " cells");
        }
    }

    /**
     * The credentials every operation is tried with. The OAuth access token reads everything ({@code all:read}), so
     * it is refused the API-key operations (which need write scopes) as an access token always must be.
     */
    private List<Credential> credentials() {
        List<Credential> credentials = new ArrayList<>();
        credentials.add(Credential.refused("no credential", null));
        credentials.add(Credential.refused("garbage", "Bearer garbage"));
        credentials.add(Credential.refused("another scheme", "Basic " + Base64.getEncoder()
                .encodeToString((admin + ":").getBytes(StandardCharsets.UTF_8))));
        String real = allAccessKey();
        credentials.add(Credential.refused("a real prefix with a wrong secret",
                "Bearer " + real.substring(0, real.length() - 4) + "AAAA"));

        String revoked = allAccessKey();
        post("/api/v1/apikey/" + prefix(revoked) + "/expire", null, 200);
        credentials.add(Credential.refused("revoked key", "Bearer " + revoked));
        String rotated = allAccessKey();
        post("/api/v1/apikey/" + prefix(rotated) + "/rotate", null, 200);
        credentials.add(Credential.refused("rotated-away secret", "Bearer " + rotated));
        String expired = mintKey(null, null, "1h");
        clock.advance(Duration.ofHours(2));
        credentials.add(Credential.refused("expired key", "Bearer " + expired));

        credentials.add(Credential.bearer("local credential", admin, List.of(Scopes.ALL)));
        credentials.add(Credential.bearer("all-access key", allAccessKey(), List.of(Scopes.ALL)));
        for (Role role : Role.values()) {
            String user = "role-" + role.wireName();
            post("/api/v1/user", "{\"name\": \"" + user + "\", \"role\": \"" + role.wireName() + "\"}", 201);
            credentials.add(Credential.usersOwn(role.wireName() + "'s key", mintKey(user, null, null), RoleScopes.of(role)));
        }
        credentials.add(Credential.bearer("OAuth access token", accessToken(List.of(Scopes.ALL_READ)),
                List.of(Scopes.ALL_READ)));
        post("/api/v1/user", "{\"name\": \"holder\"}", 201); // owns the targets: pre-auth keys and nodes
        nodeKey = AuthKey.forUser("holder").reusable().create(server.network);
        return credentials;
    }

    /**
     * The fixed credentials plus those made for this requirement: a key holding exactly the required scopes, one
     * holding an unrelated scope and, for a write scope, one holding only its read form.
     */
    private List<Credential> credentials(List<Credential> fixed, List<String> required) {
        List<Credential> all = new ArrayList<>(fixed);
        if (required == null || required.isEmpty()) {
            return all;
        }
        all.add(Credential.bearer("key with exactly " + required, scopedKey(required), required));
        String unrelated = UNRELATED.stream().filter(scope -> !Scopes.coversAll(List.of(scope), required))
                .findFirst().orElseThrow();
        all.add(Credential.bearer("key with the unrelated " + unrelated, scopedKey(List.of(unrelated)),
                List.of(unrelated)));
        List<String> readForms = required.stream().map(scope -> scope.endsWith(":read") ? scope : scope + ":read")
                .distinct().toList();
        if (!readForms.equals(required)) {
            all.add(Credential.bearer("key with only " + readForms, scopedKey(readForms), readForms));
        }
        return all;
    }

    /** Operations that answer a stream which stays open (server-sent events): only their status is read. */
    private static final Set<String> STREAMS = Set.of("GET /api/v1/events");

    /** A stream's status, its body closed at once; a refusal's body is read whole. */
    private Answer streamOpened(String path, Map<String, String> headers) {
        HttpRequest.Builder request = HttpRequest.newBuilder(server.url().resolve(path)).timeout(Duration.ofSeconds(30));
        headers.forEach(request::header);
        try (HttpClient http = HttpClient.newHttpClient()) {
            HttpResponse<InputStream> opened = http.send(request.build(), HttpResponse.BodyHandlers.ofInputStream());
            try (InputStream stream = opened.body()) {
                String refusal = opened.statusCode() == 200 ? ""
                        : new String(stream.readAllBytes(), StandardCharsets.UTF_8);
                return new Answer(opened.statusCode(), refusal);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** What a cell looks at of an answer. */
    private record Answer(int status, String body) {
        static Answer of(HttpResponse<String> response) {
            return new Answer(response.statusCode(), response.body());
        }
    }

    /** One cell: the fault it shows, or null when it answered as the requirement says. */
    private String cell(String operation, List<String> required, Credential credential) {
        String method = operation.substring(0, operation.indexOf(' '));
        String template = operation.substring(operation.indexOf(' ') + 1);
        String body = BODIES.get(operation);
        String path = concrete(template);
        Map<String, String> headers = credential.authorization() == null ? Map.of()
                : Map.of("Authorization", credential.authorization());
        Answer response = STREAMS.contains(operation) ? streamOpened(path, headers)
                : Answer.of(server.request(method, path, null, body, headers));
        int status = response.status();
        String expected;
        boolean right;
        if (required == null) {
            expected = "neither 401 nor 403 (public)";
            right = status != 401 && status != 403;
        } else if (credential.scopes() == null) {
            expected = "401";
            right = status == 401;
        } else if (Scopes.coversAll(credential.scopes(), required)) {
            expected = "neither 401 nor 403";
            right = status != 401 && status != 403;
        } else if (credential.usersOwn() && readsNodes(method, template, required)) {
            // A person reads the machines they own without the scope (docs/roles-and-scopes.md); the targets are
            // the holder's, so they are not there for them.
            expected = "200 or 404 (only the user's own machines)";
            right = status == 200 || status == 404;
        } else {
            expected = "403";
            right = status == 403;
        }
        if (status >= 500) {
            right = false;
        }
        return right ? null : operation + " with " + credential.name() + " (" + method + " " + path + "): expected "
                + expected + ", got " + status + " " + abbreviated(response.body());
    }

    /** A read of nodes that needs nothing but reading nodes: the list, a node, its peers and packet filter. */
    private static boolean readsNodes(String method, String template, List<String> required) {
        return method.equals("GET") && template.startsWith("/api/v1/node") && required.equals(List.of(Nodes.READ_SCOPE));
    }

    /** The scopes the operation declares it needs; null for a public operation. */
    private List<String> requirement(String operation) {
        List<Map<String, List<String>>> security = contract.declaredSecurity(operation)
                .orElseThrow(() -> new AssertionError(operation + " declares no security requirement"));
        return security.isEmpty() ? null : List.copyOf(security.getFirst().get(SCHEME));
    }

    /** The template with each path parameter replaced by a target made for this one request. */
    private String concrete(String template) {
        Map<String, Supplier<String>> targets = new java.util.LinkedHashMap<>(Map.of(
                "/api/v1/webhook/{endpointId}", () -> post("/api/v1/webhook", "{\"url\": \"http://10.0.0.1/hook\"}",
                        201).get("webhook").get("id").asString(),
                "/api/v1/user/{id}", () -> field(post("/api/v1/user",
                        "{\"name\": \"target-" + serial.incrementAndGet() + "\"}", 201), "id"),
                "/api/v1/apikey/{prefix}", () -> prefix(mintKey(null, List.of("api_access_tokens:read"), null)),
                "/api/v1/preauthkey/{id}", () -> post("/api/v1/preauthkey", "{\"user\": \"holder\"}", 201)
                        .get("preAuthKey").get("id").asString(),
                "/api/v1/oauth-client/{clientId}", () -> post("/api/v1/oauth-client",
                        "{\"scopes\": [\"oauth_keys:read\"]}", 201).get("oauthClient").get("id").asString(),
                "/api/v1/app/{id}", () -> post("/api/v1/apps", "{\"name\": \"target-" + serial.incrementAndGet()
                        + "\", \"domains\": [\"example.net\"]}", 201).get("id").asString(),
                "/api/v1/node/{id}", () -> Long.toString(Machine.named("target-" + serial.incrementAndGet())
                        .join(server.network, nodeKey).id()),
                "/register/{authId}", () -> "nosuch",
                "/api/v1/access-request/{id}", () -> "999999", // decisions check the scope before the id
                "/api/v1/docs/{file}", () -> "swagger-ui.css"));
        targets.put("/api/v1/log-stream/{logType}", () -> "configuration");
        targets.put("/api/v1/auth/register/{authId}", () -> "nosuch");
        targets.put("/api/v1/posture-integration/{integrationId}", () -> "nosuchintegration");
        targets.put("/api/v1/service/{name}", () -> "svc:probe");
        for (var target : targets.entrySet()) {
            if (template.startsWith(target.getKey())) {
                String parameter = target.getKey().substring(target.getKey().lastIndexOf('{'));
                return template.replace(parameter, target.getValue().get());
            }
        }
        if (template.endsWith("/{authId}")) {
            return template.replace("{authId}", "nosuch"); // an SSH check's page: public, nothing to find
        }
        if (template.contains("{")) {
            throw new AssertionError(template + " has a path parameter the matrix cannot fill: add a target");
        }
        return template.equals("/key") ? "/key?v=100" : template;
    }

    /** A key made by the local credential: owned by {@code user} (or none), with {@code scopes} (or its owner's role). */
    private String mintKey(String user, List<String> scopes, String expiration) {
        Map<String, Object> request = new LinkedHashMap<>();
        Optional.ofNullable(user).ifPresent(value -> request.put("user", value));
        Optional.ofNullable(scopes).ifPresent(value -> request.put("scopes", value));
        Optional.ofNullable(expiration).ifPresent(value -> request.put("expiration", value));
        return post("/api/v1/apikey", JSON.writeValueAsString(request), 201).get("secret").asString();
    }

    /** An access token from an OAuth client with {@code scopes}, made by the local credential. */
    private String accessToken(List<String> scopes) {
        String secret = post("/api/v1/oauth-client", JSON.writeValueAsString(Map.of("scopes", scopes)), 201)
                .get("secret").asString();
        HttpResponse<String> token = server.request("POST", "/api/v2/oauth/token", null,
                "grant_type=client_credentials&client_secret=" + secret,
                Map.of("Content-Type", "application/x-www-form-urlencoded"));
        assertEquals(200, token.statusCode(), token.body());
        return JSON.readTree(token.body()).get("access_token").asString();
    }

    private String allAccessKey() {
        return mintKey(null, null, null);
    }

    private String scopedKey(List<String> scopes) {
        return scopedKeys.computeIfAbsent(String.join(" ", scopes), key -> mintKey(null, scopes, null));
    }

    private JsonNode post(String path, String body, int expected) {
        HttpResponse<String> response = server.request("POST", path, admin, body);
        assertEquals(expected, response.statusCode(), path + ": " + response.body());
        return JSON.readTree(response.body());
    }

    private static String abbreviated(String body) {
        return body.length() <= 200 ? body : body.substring(0, 200) + "...";
    }

    private static String field(JsonNode node, String name) {
        return node.get(name).asString();
    }

    /** The public prefix of a key's secret ({@code svckey-api-<prefix>-<secret>}). */
    private static String prefix(String secret) {
        return secret.split("-")[2];
    }
}
