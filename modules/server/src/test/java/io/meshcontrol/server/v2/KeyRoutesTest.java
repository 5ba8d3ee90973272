package io.meshcontrol.server.v2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.api.ApiJson;
import io.meshcontrol.core.auth.Caller;
import io.meshcontrol.core.model.Role;
import io.meshcontrol.core.state.OAuthClients;
import io.meshcontrol.core.state.Users;
import io.meshcontrol.server.testing.TestServer;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** {@code /api/v2/tailnet/-/keys} in the vendor's Key shape, with the scope and tag rules of each kind. */
class KeyRoutesTest {

    private static final JsonMapper JSON = ApiJson.mapper(false);
    private static final String TAGGED_KEY = """
            {"capabilities":{"devices":{"create":{"reusable":false,"ephemeral":true,"preauthorized":false,"tags":[%s]}}}}""";
    @TempDir
    static Path folder;
    private static TestServer server;
    private static String admin;
    /** An access token of a client with auth_keys and tag:ci. */
    private static String token;

    @BeforeAll
    static void start() {
        server = TestServer.start(folder);
        Caller local = Caller.localAdmin();
        server.network.policies().set(local, """
                {"tagOwners": {"tag:ci": [], "tag:ci-runner": ["tag:ci"], "tag:prod": []}}""",
                null);
        admin = server.network.apiKeys().create(local, null, List.of(), "admin", null).secret();
        String secret = server.network.oauthClients().create(local, new OAuthClients.Fields("client",
                List.of("auth_keys"), List.of("tag:ci"), "ci", null, null, null, null)).secret();
        token = server.network.oauthClients().issueToken(secret, List.of()).text();
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static HttpResponse<String> call(String method, String path, String credential, String body) {
        return server.request(method, "/api/v2/tailnet/-" + path, credential, body);
    }

    private static JsonNode ok(HttpResponse<String> response) {
        assertEquals(200, response.statusCode(), response.body());
        return JSON.readTree(response.body());
    }

    private static String tags(String... tags) {
        List<String> quoted = new ArrayList<>();
        for (String tag : tags) {
            quoted.add("\"" + tag + "\"");
        }
        return String.join(",", quoted);
    }

    @Test
    void tokenMintsASingleUseTaggedKeyInTheVendorsShape() {
        JsonNode key = ok(call("POST", "/keys", token, TAGGED_KEY.formatted(tags("tag:ci"))));
        assertTrue(key.get("key").asString().startsWith("svckey-auth-"), key.toString());
        assertEquals("auth", key.get("keyType").asString());
        JsonNode create = key.get("capabilities").get("devices").get("create");
        assertFalse(create.get("reusable").asBoolean());
        assertTrue(create.get("ephemeral").asBoolean());
        assertEquals("tag:ci", create.get("tags").get(0).asString());
        assertEquals(90L * 24 * 3600, key.get("expirySeconds").asLong());
        Instant.parse(key.get("created").asString());
        Instant.parse(key.get("expires").asString());
        assertFalse(key.has("userId"), "keys made through OAuth belong to the network");
        assertFalse(key.has("revoked"), "absent, never \"\"");
        assertFalse(ok(call("GET", "/keys/" + key.get("id").asString(), token, null)).has("key"), "secret shown once");
    }

    @Test
    void tokenMintsOnlyItsTagsAndTagsTheyOwn() {
        ok(call("POST", "/keys", token, TAGGED_KEY.formatted(tags("tag:ci-runner"))));
        HttpResponse<String> refused = call("POST", "/keys", token, TAGGED_KEY.formatted(tags("tag:ci", "tag:prod")));
        assertEquals(403, refused.statusCode(), "a defined tag the token may not give");
        assertTrue(JSON.readTree(refused.body()).get("message").asString()
                .startsWith("requested tags [tag:prod] are not permitted"), refused.body());
        assertEquals(400, call("POST", "/keys", token, TAGGED_KEY.formatted("")).statusCode(), "a token's key needs tags");
    }

    @Test
    void expirySecondsIsEchoed() {
        JsonNode key = ok(call("POST", "/keys", admin, "{\"capabilities\":{\"devices\":{\"create\":{\"tags\":"
                + "[\"tag:prod\"]}}},\"expirySeconds\":3600,\"description\":\"short\"}"));
        assertEquals(3600, key.get("expirySeconds").asLong());
        assertEquals("short", key.get("description").asString());
    }

    @Test
    void userKeyMintsKeysOfThatUser() {
        server.network.users().create(Caller.localAdmin(), new Users.NewUser("odin", null, null, Role.ADMIN));
        String odin = server.network.apiKeys().create(Caller.localAdmin(), "odin", List.of(), "", null).secret();
        JsonNode key = ok(call("POST", "/keys", odin, "{\"capabilities\":{\"devices\":{}}}"));
        assertTrue(key.has("userId"), key.toString());
        assertEquals(0, key.get("capabilities").get("devices").get("create").get("tags").size());
    }

    @Test
    void deletedAuthKeyReadsInvalidUntilReaped() {
        String id = ok(call("POST", "/keys", token, TAGGED_KEY.formatted(tags("tag:ci")))).get("id").asString();
        ok(call("DELETE", "/keys/" + id, token, null));
        JsonNode read = ok(call("GET", "/keys/" + id, token, null));
        assertTrue(read.get("invalid").asBoolean());
        Instant.parse(read.get("revoked").asString());
    }

    @Test
    void oauthClientIsCreatedReadReplacedAndDeleted() {
        JsonNode created = ok(call("POST", "/keys", admin,
                "{\"keyType\":\"client\",\"scopes\":[\"auth_keys\"],\"tags\":[\"tag:ci\"],\"description\":\"tf\"}"));
        String id = created.get("id").asString();
        assertTrue(created.get("key").asString().startsWith("svckey-client-" + id + "-"));
        assertEquals("[\"auth_keys\"]", created.get("scopes").toString());
        assertEquals("[\"tag:ci\"]", created.get("tags").toString());
        Instant.parse(created.get("updated").asString());
        JsonNode replaced = ok(call("PUT", "/keys/" + id, admin,
                "{\"keyType\":\"client\",\"scopes\":[\"auth_keys\",\"devices:core:read\"],\"tags\":[\"tag:ci\"],"
                        + "\"description\":\"tf2\"}"));
        assertEquals("tf2", replaced.get("description").asString());
        assertEquals(2, replaced.get("scopes").size());
        ok(call("DELETE", "/keys/" + id, admin, null));
        assertEquals(404, call("GET", "/keys/" + id, admin, null).statusCode(), "a deleted client is gone");
    }

    /**
     * Issue 33: deleted out of band (svc oauth-clients delete, /api/v1), a client or identity read back 200 with
     * invalid: true, which the Terraform provider does not look at, so its plan showed no change. The vendor's
     * answer, and what the provider reads as "removed", is 404.
     */
    @Test
    void aClientOrIdentityDeletedOutOfBandIsGone() {
        for (String body : List.of("{\"keyType\":\"client\",\"scopes\":[\"auth_keys\"],\"tags\":[\"tag:ci\"]}",
                "{\"keyType\":\"federated\",\"scopes\":[\"auth_keys\"],\"tags\":[\"tag:ci\"],"
                        + "\"issuer\":\"https://token.actions.example\",\"subject\":\"repo:acme/*\"}")) {
            String id = ok(call("POST", "/keys", admin, body)).get("id").asString();
            server.network.oauthClients().revoke(Caller.localAdmin(), id);
            HttpResponse<String> read = call("GET", "/keys/" + id, admin, null);
            assertEquals(404, read.statusCode(), read.body());
            assertTrue(read.body().contains("was deleted"), read.body());
            assertFalse(ok(call("GET", "/keys", admin, null)).toString().contains(id), "not listed either");
            assertEquals(404, call("DELETE", "/keys/" + id, admin, null).statusCode(), "nothing left to delete");
        }
    }

    @Test
    void federatedIdentityGetsAnAudienceAndEchoesItsRules() {
        JsonNode created = ok(call("POST", "/keys", admin, "{\"keyType\":\"federated\",\"scopes\":[\"auth_keys\"],"
                + "\"tags\":[\"tag:ci\"],\"audience\":\"\",\"issuer\":\"https://token.actions.example\","
                + "\"subject\":\"repo:acme/*\",\"customClaimRules\":null,\"description\":\"\"}"));
        assertFalse(created.has("key"), "a federated identity has no secret");
        assertFalse(created.get("audience").asString().isEmpty());
        assertEquals("{}", created.get("customClaimRules").toString());
        assertEquals("repo:acme/*", created.get("subject").asString());
    }

    @Test
    void eachKindNeedsItsOwnScope() {
        String authKeysOnly = server.network.apiKeys().create(Caller.localAdmin(), null, List.of("auth_keys"), "", null)
                .secret();
        HttpResponse<String> refused = call("POST", "/keys", authKeysOnly,
                "{\"keyType\":\"client\",\"scopes\":[\"auth_keys\"],\"tags\":[\"tag:ci\"]}");
        assertEquals(403, refused.statusCode());
        assertTrue(JSON.readTree(refused.body()).get("message").asString().contains("oauth_keys"), refused.body());
        for (JsonNode key : ok(call("GET", "/keys", authKeysOnly, null)).get("keys")) {
            assertEquals("auth", key.get("keyType").asString());
        }
        assertEquals(400, call("POST", "/keys", admin, "{\"keyType\":\"api\"}").statusCode());
    }

    @Test
    void accessTokenCannotCreateAClientBeyondItself() {
        HttpResponse<String> refused = call("POST", "/keys", token,
                "{\"keyType\":\"client\",\"scopes\":[\"auth_keys\"],\"tags\":[\"tag:ci\"]}");
        assertEquals(403, refused.statusCode(), "the token lacks oauth_keys");
    }
}
