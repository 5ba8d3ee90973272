package io.meshcontrol.server.login;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.core.MeshException;
import io.meshcontrol.core.auth.Caller;
import io.meshcontrol.core.key.MachinePrivateKey;
import io.meshcontrol.core.key.NodePrivateKey;
import io.meshcontrol.core.model.AuditEntry;
import io.meshcontrol.core.model.Node;
import io.meshcontrol.core.model.Role;
import io.meshcontrol.core.state.PendingLogins;
import io.meshcontrol.core.state.Registrations;
import io.meshcontrol.core.state.Users;
import io.meshcontrol.core.testing.MovableClock;
import io.meshcontrol.server.testing.LoginBrowser;
import io.meshcontrol.server.testing.OidcIssuerFixture;
import io.meshcontrol.server.testing.TestServer;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A machine's AuthURL ({@code /register/{authId}}) and the console's register page behind it: where the link leads
 * (signed in or not, with and without OIDC), the waiting machine's facts, completing it for a user or for tags with
 * device approval in the same step, refusing it, a member without the permission, and a lapsed link.
 */
class RegisterPageTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final String HOSTINFO = """
            {"Hostname": "kiosk", "OS": "linux", "OSVersion": "6.1.0", "IPNVersion": "1.80.3-t1234-g5678"}""";

    @TempDir
    Path folder;
    private final MovableClock clock = MovableClock.startingAt2026();

    /** A machine waiting for its login that asks for tag:kiosk ({@code --advertise-tags}). */
    private static String pending(TestServer server) {
        return pending(server, List.of("tag:kiosk"));
    }

    private static String pending(TestServer server, List<String> requestTags) {
        return server.network.pendingLogins().start(new Registrations.Request(MachinePrivateKey.generate().publicKey(),
                NodePrivateKey.generate().publicKey(), "kiosk", HOSTINFO, requestTags), false);
    }

    private static String key(TestServer server, String user) {
        return server.network.apiKeys().create(Caller.localAdmin(), user, List.of(), "test", null).secret();
    }

    /** A browser signed in to the console with {@code apiKey} (POST /admin/session), as the sign-in form does. */
    private static LoginBrowser signedIn(TestServer server, String apiKey) {
        LoginBrowser browser = new LoginBrowser();
        HttpResponse<String> answer = browser.send(HttpRequest.newBuilder(server.url().resolve("/admin/session"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"apiKey\": \"" + apiKey + "\"}")).build());
        assertEquals(200, answer.statusCode(), answer.body());
        return browser;
    }

    private static HttpResponse<String> get(LoginBrowser browser, URI url) {
        return browser.send(HttpRequest.newBuilder(url).GET().build());
    }

    @Test
    void withoutOidcTheLinkLeadsToTheConsolesRegisterPageWhichSignsInFirst() {
        try (TestServer server = TestServer.start(folder)) {
            String authId = pending(server);
            URI link = server.url().resolve("/register/" + authId);

            HttpResponse<String> anonymous = get(new LoginBrowser(), link);
            assertEquals(303, anonymous.statusCode());
            String location = anonymous.headers().firstValue("Location").orElseThrow();
            assertEquals("../admin/#/register/" + authId, location);
            assertEquals(server.url().resolve("/admin/#/register/" + authId), link.resolve(location),
                    "the console page, which shows its sign-in first, at the same address");
            assertEquals(200, get(new LoginBrowser(), link.resolve(location)).statusCode());

            LoginBrowser admin = signedIn(server, server.localToken());
            HttpResponse<String> signedIn = get(admin, link);
            assertEquals(303, signedIn.statusCode());
            assertEquals("../admin/#/register/" + authId, signedIn.headers().firstValue("Location").orElseThrow());
        }
    }

    @Test
    void anUnknownOrLapsedLinkSaysSoOnAPage() {
        try (TestServer server = TestServer.in(folder).clock(clock).start()) {
            String authId = pending(server);
            clock.advance(PendingLogins.LIFETIME.plus(Duration.ofSeconds(1)));
            for (String id : List.of(authId, "nosuch", "not-an-id")) {
                HttpResponse<String> page = server.request("GET", "/register/" + id, null, null);
                assertEquals(404, page.statusCode(), id);
                assertTrue(page.headers().firstValue("Content-Type").orElseThrow().startsWith("text/html"));
                assertTrue(page.body().contains("This login link expired"), page.body());
                assertTrue(page.body().contains("Run <code>tailscale up</code> again"), page.body());
            }
            HttpResponse<String> facts = server.request("GET", "/api/v1/auth/register/" + authId,
                    server.localToken(), null);
            assertEquals(404, facts.statusCode());
            assertTrue(facts.body().contains("run tailscale up again"), facts.body());
        }
    }

    @Test
    void theAdministratorSeesTheMachineAndAddsItForTagsApprovedInOneStep() {
        try (TestServer server = TestServer.in(folder).clock(clock).start()) {
            String admin = server.localToken();
            server.network.policies().set(Caller.localAdmin(), """
                    {"tagOwners": {"tag:kiosk": [], "tag:server": []},
                     "acls": [{"action": "accept", "src": ["*"], "dst": ["*:*"]}]}""", null);
            assertEquals(200, server.request("PATCH", "/api/v1/settings", admin, "{\"devicesApprovalOn\": true}")
                    .statusCode());
            String authId = pending(server);

            JsonNode facts = JSON.readTree(server.request("GET", "/api/v1/auth/register/" + authId, admin, null).body());
            assertEquals("kiosk", facts.get("hostname").asString());
            assertEquals("linux", facts.get("os").asString());
            assertEquals("6.1.0", facts.get("osVersion").asString());
            assertEquals("1.80.3-t1234-g5678", facts.get("clientVersion").asString());
            assertTrue(facts.get("nodeKey").asString().startsWith("nodekey:"));
            assertEquals("[\"tag:kiosk\"]", facts.get("requestedTags").toString());
            assertEquals("[\"tag:kiosk\",\"tag:server\"]", facts.get("applicableTags").toString());
            assertTrue(facts.get("devicesApprovalOn").asBoolean());
            assertFalse(facts.has("currentUser"), "a new machine");

            HttpResponse<String> added = server.request("POST", "/api/v1/auth/register", admin,
                    "{\"authId\": \"" + authId + "\", \"tags\": [\"tag:server\"], \"approve\": true}");
            assertEquals(200, added.statusCode(), added.body());
            Node node = server.network.nodes().list(Caller.localAdmin()).getFirst();
            assertEquals(List.of("tag:server"), node.tags());
            assertNull(node.userId());
            assertTrue(node.authorized(), "approved in the same step");
            AuditEntry entry = server.network.auditLog().recent("node.register", 1).getFirst();
            assertEquals("tag:server", entry.details().get("tags"));
            assertEquals("true", entry.details().get("approved"));
            assertEquals(404, server.request("GET", "/register/" + authId, null, null).statusCode(),
                    "a completed link is spent");
        }
    }

    @Test
    void forAUserWithoutApproveTheMachineStillWaitsForDeviceApproval() {
        try (TestServer server = TestServer.start(folder)) {
            String admin = server.localToken();
            server.network.users().create(Caller.localAdmin(), new Users.NewUser("alice", "", "", Role.MEMBER));
            server.request("PATCH", "/api/v1/settings", admin, "{\"devicesApprovalOn\": true}");
            String authId = pending(server, List.of());
            HttpResponse<String> added = server.request("POST", "/api/v1/auth/register", admin,
                    "{\"authId\": \"" + authId + "\", \"user\": \"alice\"}");
            assertEquals(200, added.statusCode(), added.body());
            Node node = server.network.nodes().list(Caller.localAdmin()).getFirst();
            assertEquals(server.network.users().requireByName("alice").id(), node.userId());
            assertFalse(node.authorized());

            String both = pending(server);
            HttpResponse<String> refused = server.request("POST", "/api/v1/auth/register", admin,
                    "{\"authId\": \"" + both + "\", \"user\": \"alice\", \"tags\": [\"tag:kiosk\"]}");
            assertEquals(400, refused.statusCode(), refused.body());
            assertTrue(server.network.pendingLogins().isPending(both), "a refused request leaves the login waiting");
        }
    }

    @Test
    void aMemberWithoutThePermissionIsToldSoNotAnError() {
        try (TestServer server = TestServer.start(folder)) {
            server.network.users().create(Caller.localAdmin(), new Users.NewUser("bob", "", "", Role.MEMBER));
            String authId = pending(server);
            LoginBrowser member = signedIn(server, key(server, "bob"));
            HttpResponse<String> session = get(member, server.url().resolve("/admin/session"));
            assertTrue(session.body().contains("\"signedIn\":true"), session.body());

            for (HttpRequest.Builder call : List.of(
                    HttpRequest.newBuilder(server.url().resolve("/api/v1/auth/register/" + authId)).GET(),
                    HttpRequest.newBuilder(server.url().resolve("/api/v1/auth/register"))
                            .header("Content-Type", "application/json")
                            .header("X-CSRF-Token", csrf(session))
                            .POST(HttpRequest.BodyPublishers.ofString("{\"authId\": \"" + authId
                                    + "\", \"user\": \"bob\"}")))) {
                HttpResponse<String> answer = member.send(call.build());
                assertEquals(403, answer.statusCode(), answer.body());
                assertTrue(answer.headers().firstValue("Content-Type").orElseThrow()
                        .startsWith("application/problem+json"));
            }
            assertTrue(server.network.pendingLogins().isPending(authId));
        }
    }

    @Test
    void aRefusedLoginEndsTheMachinesWaitAndIsAudited() throws Exception {
        try (TestServer server = TestServer.start(folder)) {
            String authId = pending(server);
            CompletableFuture<Object> waiting = CompletableFuture.supplyAsync(() -> {
                try {
                    return server.network.pendingLogins().await(authId, Duration.ofMinutes(1));
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            });
            assertEquals(204, server.request("DELETE", "/api/v1/auth/register/" + authId, server.localToken(), null)
                    .statusCode());
            ExecutionException ended = org.junit.jupiter.api.Assertions.assertThrows(ExecutionException.class,
                    () -> waiting.get(30, TimeUnit.SECONDS));
            MeshException refusal = assertInstanceOf(MeshException.class, ended.getCause());
            assertTrue(refusal.getMessage().contains("refused"), refusal.getMessage());
            assertEquals("kiosk", server.network.auditLog().recent("node.register.reject", 1).getFirst().details()
                    .get("hostname"));
            assertEquals(404, server.request("GET", "/register/" + authId, null, null).statusCode());
            assertEquals(404, server.request("DELETE", "/api/v1/auth/register/" + authId, server.localToken(), null)
                    .statusCode());
        }
    }

    @Test
    void withOidcASignInByTheIssuerComesBackToTheSameRegisterPage() throws Exception {
        try (OidcIssuerFixture issuer = OidcIssuerFixture.startWithLoginForm();
                TestServer server = TestServer.in(folder).reachableServerUrl()
                        .set("egress.allow_loopback_targets", "true")
                        .set("oidc.issuer", issuer.issuer("people"))
                        .set("oidc.client_id", "mesh")
                        .set("oidc.client_secret", "s3cret").start()) {
            String authId = pending(server);
            URI link = server.url().resolve("/register/" + authId);
            // Not signed in: the person's own login at the issuer (the machine becomes theirs), as before.
            HttpResponse<String> anonymous = get(new LoginBrowser(), link);
            assertEquals(302, anonymous.statusCode());
            assertTrue(anonymous.headers().firstValue("Location").orElseThrow().startsWith(issuer.issuer("people")));

            // The console's sign-in with the issuer carries the page to come back to (ReturnPath) ...
            LoginBrowser browser = new LoginBrowser();
            LoginBrowser.Page back = browser.logIn(server.url().resolve("/login?return_to="
                    + java.net.URLEncoder.encode("/admin/#/register/" + authId, java.nio.charset.StandardCharsets.UTF_8)),
                    "sub-freya", Map.of("email", "freya@example.com", "email_verified", true,
                            "preferred_username", "freya"));
            assertEquals(200, back.status(), back.hops().toString());
            assertEquals(server.url().resolve("/admin/#/register/" + authId), back.hops().getLast());
            // ... and the link itself, signed in now, leads to the same page instead of logging in again.
            HttpResponse<String> signedIn = get(browser, link);
            assertEquals(303, signedIn.statusCode());
            assertEquals("../admin/#/register/" + authId, signedIn.headers().firstValue("Location").orElseThrow());
            // freya is a member: the page is told she may not, and may ask for her own login instead
            assertEquals(403, get(browser, server.url().resolve("/api/v1/auth/register/" + authId)).statusCode());
            HttpResponse<String> own = get(browser, server.url().resolve("/register/" + authId + "?login=self"));
            assertEquals(302, own.statusCode());
            assertTrue(own.headers().firstValue("Location").orElseThrow().startsWith(issuer.issuer("people")));
        }
    }

    private static String csrf(HttpResponse<String> session) {
        return JSON.readTree(session.body()).get("csrfToken").asString();
    }
}
