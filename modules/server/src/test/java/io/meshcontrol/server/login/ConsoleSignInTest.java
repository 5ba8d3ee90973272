package io.meshcontrol.server.login;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.core.auth.Caller;
import io.meshcontrol.core.model.Role;
import io.meshcontrol.core.state.Users;
import io.meshcontrol.server.testing.TestServer;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** Console sign-in with an API key: the cookie, the CSRF check of every change, and the key's own authorisation. */
class ConsoleSignInTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final String NEW_USER = "{\"name\":\"carol\"}";

    @TempDir
    Path folder;
    private TestServer server;

    @BeforeEach
    void start() {
        server = TestServer.start(folder);
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private String apiKey(String owner, Role role) {
        if (owner == null) {
            return server.network.apiKeys().create(Caller.localAdmin(), null, List.of(), "console", Duration.ofDays(1))
                    .secret();
        }
        server.network.users().create(Caller.localAdmin(), new Users.NewUser(owner, "", "", role));
        return server.network.apiKeys().create(Caller.localAdmin(), owner, List.of(), "console", Duration.ofDays(1))
                .secret();
    }

    /** A signed-in browser: its cookie and CSRF token. */
    private record Browser(String cookie, String csrfToken, HttpResponse<String> signIn) {
    }

    private Browser signIn(String key) {
        HttpResponse<String> answer = server.request("POST", "/admin/session", null,
                JSON.writeValueAsString(Map.of("apiKey", key)));
        assertEquals(200, answer.statusCode(), answer.body());
        String setCookie = answer.headers().firstValue("Set-Cookie").orElseThrow();
        return new Browser(setCookie.substring(0, setCookie.indexOf(';')),
                JSON.readTree(answer.body()).get("csrfToken").asString(), answer);
    }

    private HttpResponse<String> call(String method, String path, Browser browser, String body,
            Map<String, String> headers) {
        Map<String, String> all = new java.util.HashMap<>(headers);
        all.put("Cookie", browser.cookie());
        return server.request(method, path, null, body, all);
    }

    @Test
    void signingInSetsAStrictHttpOnlySessionCookieActingAsTheKey() {
        Browser browser = signIn(apiKey(null, null));
        String cookie = browser.signIn().headers().firstValue("Set-Cookie").orElseThrow();
        assertTrue(cookie.startsWith("svc_console="), cookie);
        assertTrue(cookie.contains("; HttpOnly"), cookie);
        assertTrue(cookie.contains("; SameSite=Strict"), cookie);
        assertFalse(cookie.contains("Secure"), "plain http server_url: " + cookie);
        assertEquals("no-store", browser.signIn().headers().firstValue("Cache-Control").orElseThrow());

        JsonNode me = JSON.readTree(call("GET", "/admin/session", browser, null, Map.of()).body());
        assertTrue(me.get("signedIn").asBoolean());
        assertEquals("all", me.get("scopes").get(0).asString());
        assertEquals(200, call("GET", "/api/v1/node", browser, null, Map.of()).statusCode());
    }

    @Test
    void theCookieIsSecureWhenTheServerUrlIsHttps() {
        server.close();
        server = TestServer.in(folder).set("server_url", "https://mesh.example.com").start();
        String cookie = signIn(apiKey(null, null)).signIn().headers().firstValue("Set-Cookie").orElseThrow();
        assertTrue(cookie.contains("; Secure"), cookie);
    }

    @Test
    void aChangeNeedsTheCsrfTokenAndTheServersOrigin() {
        Browser browser = signIn(apiKey(null, null));
        HttpResponse<String> noToken = call("POST", "/api/v1/user", browser, NEW_USER, Map.of());
        assertEquals(403, noToken.statusCode());
        assertTrue(noToken.body().contains("X-CSRF-Token"), noToken.body());
        assertEquals(403, call("POST", "/api/v1/user", browser, NEW_USER,
                Map.of("X-CSRF-Token", "0".repeat(64))).statusCode());
        HttpResponse<String> crossSite = call("POST", "/api/v1/user", browser, NEW_USER,
                Map.of("X-CSRF-Token", browser.csrfToken(), "Origin", "https://evil.example"));
        assertEquals(403, crossSite.statusCode());
        assertTrue(crossSite.body().contains("cross-site"), crossSite.body());
        assertTrue(server.network.users().list(Caller.localAdmin()).stream().noneMatch(u -> u.name().equals("carol")));

        assertEquals(201, call("POST", "/api/v1/user", browser, NEW_USER,
                Map.of("X-CSRF-Token", browser.csrfToken())).statusCode());
    }

    @Test
    void anAuditorsSessionReadsButCannotChangeAnything() {
        Browser auditor = signIn(apiKey("audrey", Role.AUDITOR));
        JsonNode me = JSON.readTree(auditor.signIn().body());
        assertEquals("auditor", me.get("role").asString());
        assertEquals("all:read", me.get("scopes").get(0).asString());
        assertEquals(200, call("GET", "/api/v1/user", auditor, null, Map.of()).statusCode());
        HttpResponse<String> change = call("POST", "/api/v1/user", auditor, NEW_USER,
                Map.of("X-CSRF-Token", auditor.csrfToken()));
        assertEquals(403, change.statusCode());
        assertTrue(change.body().contains("lacks the scope"), change.body());
    }

    @Test
    void aWrongKeyStartsNoSession() {
        HttpResponse<String> answer = server.request("POST", "/admin/session", null,
                "{\"apiKey\":\"svckey-api-nothing-here\"}");
        assertEquals(401, answer.statusCode());
        assertTrue(answer.headers().firstValue("Set-Cookie").isEmpty());
        assertEquals(400, server.request("POST", "/admin/session", null, "{}").statusCode());
    }

    @Test
    void expiringTheKeyEndsItsSessions() {
        String key = apiKey(null, null);
        Browser browser = signIn(key);
        String prefix = server.network.apiKeys().list(Caller.localAdmin()).getFirst().key().prefix();
        server.network.apiKeys().expire(Caller.localAdmin(), prefix);
        HttpResponse<String> after = call("GET", "/api/v1/node", browser, null, Map.of());
        assertEquals(401, after.statusCode());
        assertTrue(after.body().contains("no longer works"), after.body());
        assertFalse(JSON.readTree(call("GET", "/admin/session", browser, null, Map.of()).body())
                .get("signedIn").asBoolean());
    }

    @Test
    void signingOutNeedsTheTokenAndEndsTheSession() {
        Browser browser = signIn(apiKey(null, null));
        assertEquals(403, call("DELETE", "/admin/session", browser, null, Map.of()).statusCode());
        HttpResponse<String> out = call("DELETE", "/admin/session", browser, null,
                Map.of("X-CSRF-Token", browser.csrfToken()));
        assertEquals(204, out.statusCode());
        assertTrue(out.headers().firstValue("Set-Cookie").orElseThrow().contains("Max-Age=0"));
        assertEquals(401, call("GET", "/api/v1/node", browser, null, Map.of()).statusCode());
    }
}
