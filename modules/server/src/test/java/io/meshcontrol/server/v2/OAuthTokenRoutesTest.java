package io.meshcontrol.server.v2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.api.ApiJson;
import io.meshcontrol.core.auth.Caller;
import io.meshcontrol.core.model.AuditEntry;
import io.meshcontrol.core.model.Role;
import io.meshcontrol.core.state.OAuthClients;
import io.meshcontrol.core.state.Users;
import io.meshcontrol.server.testing.OidcIssuerFixture;
import io.meshcontrol.server.testing.TestServer;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code POST /api/v2/oauth/token} and {@code /api/v2/oauth/token-exchange} as the vendor's clients send them
 * (shared/reference/vendor-api-v2.md 1.4, 1.5), and the tokens they give at work on both APIs.
 */
class OAuthTokenRoutesTest {

    private static final JsonMapper JSON = ApiJson.mapper(false);
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    @TempDir
    static Path folder;
    private static TestServer server;
    private static OidcIssuerFixture oidc;
    private static String secret;

    @BeforeAll
    static void start() {
        server = TestServer.in(folder).set("egress.allow_loopback_targets", "true").start();
        oidc = OidcIssuerFixture.start();
        server.network.policies().set(Caller.localAdmin(),
                """
                {"tagOwners": {"tag:ci": [], "tag:ci-runner": ["tag:ci"], "tag:prod": []},
                 "acls": [{"action": "accept", "src": ["*"], "dst": ["*:*"]}]}""", null);
        secret = server.network.oauthClients().create(Caller.localAdmin(),
                new OAuthClients.Fields("client", List.of("auth_keys", "devices:core:read"), List.of("tag:ci"), "ci",
                        null, null, null, null)).secret();
    }

    @AfterAll
    static void stop() {
        oidc.close();
        server.close();
    }

    static HttpResponse<String> form(String path, String authorization, String body) {
        HttpRequest.Builder request = HttpRequest.newBuilder(server.url().resolve(path))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (authorization != null) {
            request.header("Authorization", authorization);
        }
        try {
            return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    static String basic(String user, String password) {
        return "Basic " + Base64.getEncoder().encodeToString((URLEncoder.encode(user, StandardCharsets.UTF_8) + ":"
                + URLEncoder.encode(password, StandardCharsets.UTF_8)).getBytes(StandardCharsets.UTF_8));
    }

    private static JsonNode json(HttpResponse<String> response) {
        return JSON.readTree(response.body());
    }

    @Test
    void nodeClientsBasicRequestWithThePlaceholderIdGetsAJsonToken() {
        HttpResponse<String> response = form("/api/v2/oauth/token", basic("some-client-id", secret),
                "grant_type=client_credentials");
        assertEquals(200, response.statusCode(), response.body());
        assertEquals("application/json", response.headers().firstValue("Content-Type").orElseThrow());
        JsonNode token = json(response);
        assertTrue(token.get("access_token").asString().startsWith("svckey-token-"));
        assertEquals("Bearer", token.get("token_type").asString());
        assertEquals(3600, token.get("expires_in").asInt());
        assertEquals("auth_keys devices:core:read", token.get("scope").asString());
    }

    @Test
    void credentialsInTheFormWithoutGrantTypeAreAccepted() {
        HttpResponse<String> response = form("/api/v2/oauth/token", null,
                "client_id=whatever&client_secret=" + URLEncoder.encode(secret, StandardCharsets.UTF_8));
        assertEquals(200, response.statusCode(), response.body());
    }

    @Test
    void vendorPrefixedSecretIsAccepted() {
        String vendor = "tskey-client-" + secret.substring("svckey-client-".length());
        assertEquals(200, form("/api/v2/oauth/token", basic("some-client-id", vendor), "grant_type=client_credentials")
                .statusCode());
    }

    @Test
    void scopeNarrowsTheToken() {
        JsonNode token = json(form("/api/v2/oauth/token", basic("x", secret), "grant_type=client_credentials&scope="
                + URLEncoder.encode("devices:core:read", StandardCharsets.UTF_8)));
        assertEquals("devices:core:read", token.get("scope").asString());
        HttpResponse<String> wider = form("/api/v2/oauth/token", basic("x", secret), "scope=dns");
        assertEquals(400, wider.statusCode());
        assertEquals("invalid_scope", json(wider).get("error").asString());
    }

    @Test
    void wrongSecretIsAnOAuthErrorWithTheVendorsMessageToo() {
        HttpResponse<String> response = form("/api/v2/oauth/token", basic("some-client-id",
                "svckey-client-aaaaaaaaaaaa-" + "b".repeat(32)), "grant_type=client_credentials");
        assertEquals(401, response.statusCode());
        JsonNode error = json(response);
        assertEquals("invalid_client", error.get("error").asString());
        assertEquals(error.get("error_description").asString(), error.get("message").asString());
        assertEquals(400, form("/api/v2/oauth/token", basic("x", secret), "grant_type=password").statusCode());
    }

    @Test
    void tokenWorksAsBearerAndAsBasicUserOnBothApis() {
        String token = json(form("/api/v2/oauth/token", basic("x", secret), "")).get("access_token").asString();
        assertEquals(200, server.request("GET", "/api/v2/tailnet/-/keys", token, null).statusCode());
        assertEquals(200, server.request("GET", "/api/v2/tailnet/-/keys", null, null,
                Map.of("Authorization", basic(token, ""))).statusCode());
        assertEquals(200, server.request("GET", "/api/v1/preauthkey", token, null).statusCode());
    }

    @Test
    void accessTokenCannotMintApiKeys() {
        String token = json(form("/api/v2/oauth/token", basic("x", secret), "")).get("access_token").asString();
        HttpResponse<String> refused = server.request("POST", "/api/v1/apikey", token, "{}");
        assertEquals(403, refused.statusCode());
        assertTrue(refused.body().contains("OAuth access token cannot mint API keys"), refused.body());
    }

    /** Both APIs mint auth keys through one rule: a token's keys belong to the network and carry its tags. */
    @Test
    void accessTokenMintsOnlyTaggedAuthKeysOnEitherApi() {
        String token = json(form("/api/v2/oauth/token", basic("x", secret), "")).get("access_token").asString();
        server.network.users().create(Caller.localAdmin(),
                new Users.NewUser("tokenowner", null, null, Role.OWNER));
        for (String body : List.of("{\"user\":\"tokenowner\",\"reusable\":true}",
                "{\"user\":\"tokenowner\",\"tags\":[\"tag:ci\"]}", "{\"user\":\"no-such-user\"}")) {
            HttpResponse<String> refused = server.request("POST", "/api/v1/preauthkey", token, body);
            assertEquals(403, refused.statusCode(), body + ": " + refused.body());
            assertTrue(refused.body().contains("OAuth access token cannot mint auth keys for a user"), refused.body());
        }
        assertEquals(201, server.request("POST", "/api/v1/preauthkey", token, "{\"tags\":[\"tag:ci\"]}").statusCode());
        HttpResponse<String> untagged = server.request("POST", "/api/v2/tailnet/-/keys", token,
                "{\"capabilities\":{\"devices\":{\"create\":{\"reusable\":true}}}}");
        assertEquals(400, untagged.statusCode(), untagged.body());
    }

    @Test
    void federatedExchangeAsTheNodeClientSendsIt() {
        String id = identity("repo:acme/*");
        String jwt = oidc.clientCredentialsToken("ci", "repo:acme/app", "mesh");
        // The CLI's first attempt carries an empty Basic credential and the authorization_code grant.
        HttpResponse<String> response = form("/api/v2/oauth/token-exchange", "Basic Og==",
                "grant_type=authorization_code&code=&client_id=" + id + "&jwt=" + jwt);
        assertEquals(200, response.statusCode(), response.body());
        JsonNode token = json(response);
        assertEquals("auth_keys", token.get("scope").asString());
        assertEquals(3600, token.get("expires_in").asInt());
        assertEquals(200, server.request("GET", "/api/v2/tailnet/-/keys/" + id,
                token.get("access_token").asString(), null).statusCode(), "a token may read its own identity");
        AuditEntry entry = server.network.auditLog().recent(OAuthClients.EXCHANGE_ACTION, 1).getFirst();
        assertEquals("granted", entry.details().get("result"));
    }

    @Test
    void refusedExchangeIsAnOAuthErrorAndAudited() {
        String id = identity("repo:acme/*");
        String jwt = oidc.clientCredentialsToken("ci", "repo:evil/app", "mesh");
        HttpResponse<String> response = form("/api/v2/oauth/token-exchange", null, "client_id=" + id + "&jwt=" + jwt);
        assertEquals(401, response.statusCode());
        assertEquals("invalid_grant", json(response).get("error").asString());
        assertTrue(json(response).get("message").asString().contains("repo:evil/app"), response.body());
        AuditEntry entry = server.network.auditLog().recent(OAuthClients.EXCHANGE_ACTION, 1).getFirst();
        assertEquals("refused", entry.details().get("result"));
        assertTrue(entry.details().get("reason").contains("does not match \"repo:acme/*\""), entry.details().toString());
        assertEquals(400, form("/api/v2/oauth/token-exchange", null, "client_id=" + id).statusCode());
    }

    private static String identity(String subject) {
        return server.network.oauthClients().create(Caller.localAdmin(),
                new OAuthClients.Fields("federated", List.of("auth_keys"), List.of("tag:ci"), "", oidc.issuer("ci"),
                        "mesh", subject, Map.of())).client().id();
    }
}
