package io.meshcontrol.server.login;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.core.key.MachinePrivateKey;
import io.meshcontrol.core.key.NodePrivateKey;
import io.meshcontrol.core.model.Node;
import io.meshcontrol.core.model.Role;
import io.meshcontrol.core.model.User;
import io.meshcontrol.core.state.Registrations;
import io.meshcontrol.core.state.Settings;
import io.meshcontrol.core.state.Users;
import io.meshcontrol.server.testing.LoginBrowser;
import io.meshcontrol.server.testing.OidcIssuerFixture;
import io.meshcontrol.server.testing.TestServer;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * OIDC login against a real issuer (mock-oauth2-server with its login form), driven by a headless browser: the
 * machine's AuthURL, the login rules, users approval, and the browser session with its cookie, CSRF check and logout.
 */
class OidcLoginTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Map<String, Object> FREYA = Map.of("email", "freya@example.com", "email_verified", true,
            "preferred_username", "freya", "name", "Freya");
    private static OidcIssuerFixture issuer;

    @TempDir
    Path folder;
    private TestServer server;
    private final LoginBrowser browser = new LoginBrowser();

    @BeforeAll
    static void startIssuer() {
        issuer = OidcIssuerFixture.startWithLoginForm();
    }

    @AfterAll
    static void stopIssuer() {
        issuer.close();
    }

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
    }

    private TestServer start(UnaryOperator<TestServer.Builder> more) {
        server = more.apply(TestServer.in(folder).reachableServerUrl()
                .set("egress.allow_loopback_targets", "true")
                .set("oidc.issuer", issuer.issuer("people"))
                .set("oidc.client_id", "mesh")
                .set("oidc.client_secret", "s3cret")).start();
        return server;
    }

    private String pendingMachine() {
        return server.network.pendingLogins().start(new Registrations.Request(MachinePrivateKey.generate().publicKey(),
                NodePrivateKey.generate().publicKey(), "laptop", "{\"Hostname\":\"laptop\"}"), false);
    }

    private URI authUrl(String authId) {
        return server.url().resolve("/register/" + authId);
    }

    private static String query(URI uri, String name) {
        for (String pair : uri.getRawQuery().split("&")) {
            if (pair.startsWith(name + "=")) {
                return java.net.URLDecoder.decode(pair.substring(name.length() + 1), java.nio.charset.StandardCharsets.UTF_8);
            }
        }
        return null;
    }

    @Test
    void theAuthUrlLeadsThroughTheIssuerAndRegistersTheMachineForTheNewUser() {
        start(b -> b);
        String authId = pendingMachine();
        LoginBrowser.Page done = browser.logIn(authUrl(authId), "sub-freya", FREYA);

        assertEquals(200, done.status(), done.body());
        assertTrue(done.body().contains("joined the network as freya"), done.body());
        assertEquals(List.of(), browser.cookieNames().stream().filter(n -> n.startsWith("svc_login_")).toList(),
                "the login's state cookie is cleared");
        URI authorize = done.hops().get(1);
        assertTrue(authorize.toString().startsWith(issuer.issuer("people")), "sent to the issuer: " + done.hops());
        assertEquals("code", query(authorize, "response_type"));
        assertEquals("mesh", query(authorize, "client_id"));
        assertEquals(server.url() + "/oidc/callback", query(authorize, "redirect_uri"));
        assertEquals("openid profile email", query(authorize, "scope"));
        assertEquals("S256", query(authorize, "code_challenge_method"));
        assertEquals(43, query(authorize, "code_challenge").length());
        assertEquals(32, query(authorize, "nonce").length());

        User freya = server.network.users().requireByName("freya");
        assertEquals("freya@example.com", freya.email());
        assertEquals("Freya", freya.displayName());
        Node laptop = server.network.nodes().list(io.meshcontrol.core.auth.Caller.localAdmin()).getFirst();
        assertEquals(freya.id(), laptop.userId());
        assertTrue(laptop.authorized());
        assertEquals(Node.RegisterMethod.INTERACTIVE, laptop.registerMethod());
        assertFalse(server.network.pendingLogins().isPending(authId));
    }

    @Test
    void aReauthenticationKeepsTheExpiryOfTheTokenItLoggedInWith() throws Exception {
        start(b -> b.set("oidc.use_expiry_from_token", "true"));
        MachinePrivateKey machine = MachinePrivateKey.generate();
        String first = server.network.pendingLogins().start(new Registrations.Request(machine.publicKey(),
                NodePrivateKey.generate().publicKey(), "laptop", "{\"Hostname\":\"laptop\"}"), false);
        browser.logIn(authUrl(first), "sub-freya", FREYA);
        Node joined = server.network.nodes().list(io.meshcontrol.core.auth.Caller.localAdmin()).getFirst();
        assertTrue(joined.keyExpiry().isBefore(java.time.Instant.now().plus(java.time.Duration.ofHours(2))),
                "the ID token's hour: " + joined.keyExpiry());

        // tailscale up --force-reauth: the same machine under a new node key, through a login of its own
        String again = server.network.pendingLogins().start(new Registrations.Request(machine.publicKey(),
                NodePrivateKey.generate().publicKey(), "laptop", "{\"Hostname\":\"laptop\"}"), false);
        new LoginBrowser().logIn(authUrl(again), "sub-freya", FREYA);
        Node after = server.network.nodes().get(io.meshcontrol.core.auth.Caller.localAdmin(), joined.id());
        assertTrue(after.keyExpiry() != null && after.keyExpiry().isBefore(
                java.time.Instant.now().plus(java.time.Duration.ofHours(2))), "still the token's, not never: " + after);
        var entry = server.network.auditLog().recent("node.register", 1).getFirst();
        assertEquals("user:freya", entry.actor());
        assertEquals(joined.keyExpiry().toString(), entry.details().get("oldKeyExpiry"));
        assertEquals(after.keyExpiry().toString(), entry.details().get("newKeyExpiry"));
    }

    @Test
    void theNextLoginOfThePersonFindsTheSameUser() {
        start(b -> b);
        browser.logIn(authUrl(pendingMachine()), "sub-freya", FREYA);
        LoginBrowser.Page again = new LoginBrowser().logIn(authUrl(pendingMachine()), "sub-freya",
                Map.of("preferred_username", "someone-else"));
        assertTrue(again.body().contains("as freya"), again.body());
        assertEquals(1, server.network.users().list(io.meshcontrol.core.auth.Caller.localAdmin()).size());
    }

    @Test
    void anAccountOutsideTheAllowedDomainsIsRefusedWithAPage() {
        start(b -> b.set("oidc.allowed_domains", "example.com"));
        String authId = pendingMachine();
        LoginBrowser.Page refused = browser.logIn(authUrl(authId), "sub-mallory",
                Map.of("email", "mallory@elsewhere.org", "email_verified", true));
        assertEquals(403, refused.status());
        assertTrue(refused.body().contains("accounts of the domain elsewhere.org may not log in here"), refused.body());
        assertEquals(List.of(), server.network.users().list(io.meshcontrol.core.auth.Caller.localAdmin()));
        assertTrue(server.network.pendingLogins().isPending(authId), "the machine still waits for someone allowed");

        LoginBrowser.Page unverified = new LoginBrowser().logIn(authUrl(authId), "sub-eve",
                Map.of("email", "eve@example.com", "email_verified", false));
        assertEquals(403, unverified.status());
        assertTrue(unverified.body().contains("not verified"), unverified.body());

        LoginBrowser.Page allowed = new LoginBrowser().logIn(authUrl(authId), "sub-freya", FREYA);
        assertEquals(200, allowed.status(), allowed.body());
    }

    @Test
    void claimsTheIssuerGivesOnlyAtUserInfoAreReadThere() {
        start(b -> b.set("oidc.allowed_domains", "example.com").set("oidc.allowed_groups", "mesh-users"));
        Map<String, Object> atUserInfo = new java.util.HashMap<>(FREYA);
        atUserInfo.put("groups", List.of("mesh-users"));
        issuer.nextLoginGivesClaimsOnlyAtUserInfo("people", atUserInfo);
        LoginBrowser.Page done = browser.logIn(authUrl(pendingMachine()), "sub-freya", Map.of());
        assertEquals(200, done.status(), done.body());
        assertTrue(done.body().contains("joined the network as freya"), done.body());
        User freya = server.network.users().requireByName("freya");
        assertEquals("freya@example.com", freya.email());
        assertEquals("Freya", freya.displayName());
    }

    @Test
    void allowedGroupsAndUsersAreCheckedToo() {
        start(b -> b.set("oidc.allowed_groups", "mesh-users").set("oidc.allowed_users", "freya@example.com"));
        LoginBrowser.Page noGroup = browser.logIn(authUrl(pendingMachine()), "sub-freya", FREYA);
        assertEquals(403, noGroup.status());
        assertTrue(noGroup.body().contains("not in a group allowed"), noGroup.body());

        Map<String, Object> thor = Map.of("email", "thor@example.com", "email_verified", true,
                "groups", List.of("mesh-users"));
        LoginBrowser.Page otherUser = new LoginBrowser().logIn(authUrl(pendingMachine()), "sub-thor", thor);
        assertEquals(403, otherUser.status());
        assertTrue(otherUser.body().contains("thor@example.com may not log in"), otherUser.body());

        Map<String, Object> freyaInGroup = new java.util.HashMap<>(FREYA);
        freyaInGroup.put("groups", List.of("staff", "mesh-users"));
        assertEquals(200, new LoginBrowser().logIn(authUrl(pendingMachine()), "sub-freya", freyaInGroup).status());
    }

    @Test
    void whileUsersApprovalIsOnTheMachineWaitsUntilTheUserIsApproved() {
        start(b -> b);
        server.network.settings().update(io.meshcontrol.core.auth.Caller.localAdmin(), new Settings.Change(null, true, null, null));
        LoginBrowser.Page held = browser.logIn(authUrl(pendingMachine()), "sub-freya", FREYA);
        assertEquals(200, held.status());
        assertTrue(held.body().contains("joins once an administrator approves you"), held.body());
        User freya = server.network.users().requireByName("freya");
        assertFalse(freya.approved());
        Node laptop = server.network.nodes().list(io.meshcontrol.core.auth.Caller.localAdmin()).getFirst();
        assertFalse(laptop.authorized());

        HttpResponse<String> approved = server.request("POST", "/api/v1/user/" + freya.id() + "/approve",
                server.localToken(), null);
        assertEquals(200, approved.statusCode(), approved.body());
        assertTrue(server.network.nodes().get(io.meshcontrol.core.auth.Caller.localAdmin(), laptop.id()).authorized());
    }

    /** Both approvals on: the page says that the machine waits for its own approval after the user's. */
    @Test
    void withUsersAndDeviceApprovalOnThePageNamesBothApprovals() {
        start(b -> b);
        server.network.settings().update(io.meshcontrol.core.auth.Caller.localAdmin(), new Settings.Change(true, true, null, null));
        LoginBrowser.Page held = browser.logIn(authUrl(pendingMachine()), "sub-freya", FREYA);
        assertEquals(200, held.status());
        assertTrue(held.body().contains("approves you (svc users approve --name freya) and then the machine "
                + "(device approval is on: svc nodes approve)"), held.body());
        User freya = server.network.users().requireByName("freya");
        server.request("POST", "/api/v1/user/" + freya.id() + "/approve", server.localToken(), null);
        Node laptop = server.network.nodes().list(io.meshcontrol.core.auth.Caller.localAdmin()).getFirst();
        assertFalse(laptop.authorized(), "device approval still holds it, as the page said");
    }

    @Test
    void aCallbackIsUsedOnceAndOnlyByTheBrowserThatStartedTheLogin() {
        start(b -> b);
        LoginBrowser.Page done = browser.logIn(authUrl(pendingMachine()), "sub-freya", FREYA);
        URI callback = done.uri();
        assertEquals("/oidc/callback", callback.getPath());
        LoginBrowser.Page replayed = browser.open(callback);
        assertEquals(400, replayed.status());
        assertTrue(replayed.body().contains("expired"), replayed.body());

        // Another browser brings back a callback of a login this one started: refused.
        LoginBrowser starter = new LoginBrowser();
        LoginBrowser.Page form = starter.open(authUrl(pendingMachine()));
        String state = query(form.uri(), "state");
        LoginBrowser.Page foreign = new LoginBrowser().open(server.url().resolve("/oidc/callback?code=x&state=" + state));
        assertEquals(400, foreign.status());
        assertTrue(foreign.body().contains("started elsewhere"), foreign.body());
    }

    @Test
    void aConsoleSessionActsAsTheUserWithCsrfChecksAndEndsAtLogout() {
        start(b -> b);
        server.network.users().create(io.meshcontrol.core.auth.Caller.localAdmin(),
                new Users.NewUser("freya", "Freya", "freya@example.com", Role.ADMIN));
        LoginBrowser.Page done = browser.logIn(server.url().resolve("/login"), "sub-freya", FREYA);
        assertEquals(200, done.status(), done.body());
        String cookie = done.response().headers().allValues("Set-Cookie").stream()
                .filter(c -> c.startsWith("svc_session=")).findFirst().orElseThrow();
        assertTrue(cookie.startsWith("svc_session="), cookie);
        assertTrue(cookie.contains("; Path=/;") && cookie.contains("; HttpOnly") && cookie.contains("; SameSite=Lax"),
                cookie);
        assertFalse(cookie.contains("Secure"), "plain HTTP server: " + cookie);
        assertEquals(List.of(), browser.cookieNames().stream().filter(n -> n.startsWith("svc_login_")).toList(),
                "the login's state cookie is cleared");

        assertTrue(done.body().contains("/admin"), "the page points to the console: " + done.body());
        JsonNode console = JSON.readTree(get("/admin/session").body());
        assertTrue(console.get("signedIn").asBoolean(), "the console knows the OIDC session: " + console);
        assertEquals("admin", console.get("role").asString());

        JsonNode session = JSON.readTree(get("/session").body());
        assertEquals("freya", session.get("user").asString());
        assertEquals("admin", session.get("role").asString());
        String csrf = session.get("csrfToken").asString();

        assertEquals(200, get("/api/v1/user").statusCode(), "a session authenticates /api/v1");
        String newUser = "{\"name\": \"thor\"}";
        HttpResponse<String> noToken = send("POST", "/api/v1/user", newUser, Map.of());
        assertEquals(403, noToken.statusCode());
        assertTrue(noToken.body().contains("X-CSRF-Token"), noToken.body());
        HttpResponse<String> foreignOrigin = send("POST", "/api/v1/user", newUser,
                Map.of("X-CSRF-Token", csrf, "Origin", "http://evil.example"));
        assertEquals(403, foreignOrigin.statusCode());
        assertTrue(foreignOrigin.body().contains("cross-site request refused"), foreignOrigin.body());
        assertTrue(server.network.users().byName("thor").isEmpty());
        assertEquals(201, send("POST", "/api/v1/user", newUser,
                Map.of("X-CSRF-Token", csrf, "Origin", server.url().toString().replaceAll("/$", ""))).statusCode());

        assertEquals(403, send("POST", "/logout", null, Map.of()).statusCode(), "logout needs the token too");
        HttpResponse<String> logout = send("POST", "/logout", null, Map.of("X-CSRF-Token", csrf));
        assertEquals(204, logout.statusCode());
        assertTrue(logout.headers().firstValue("Set-Cookie").orElseThrow().contains("Max-Age=0"));
        String stale = "svc_session=" + cookie.substring("svc_session=".length(), cookie.indexOf(';'));
        HttpResponse<String> after = server.request("GET", "/api/v1/user", null, null, Map.of("Cookie", stale));
        assertEquals(401, after.statusCode(), "the session is over on the server, not only in the browser");
    }

    @Test
    void aConsoleLoginWithAReturnPathEndsBackInTheConsoleSignedIn() {
        start(b -> b);
        LoginBrowser.Page done = browser.logIn(server.url().resolve("/login?return_to=%2Fadmin%2F%23%2Fdns"),
                "sub-freya", FREYA);
        URI back = done.hops().get(done.hops().size() - 1);
        assertEquals(server.url().resolve("/admin/#/dns"), back, "sent back to the console page: " + done.hops());
        assertEquals(200, done.status());
        assertTrue(done.body().contains("app.js"), "the console's page: " + done.body());
        assertTrue(JSON.readTree(get("/admin/session").body()).get("signedIn").asBoolean(), "and signed in");
    }

    @Test
    void aReturnTargetOnAnotherSiteIsIgnored() {
        start(b -> b);
        for (String target : List.of("https%3A%2F%2Fevil.example%2Fadmin%2F", "%2F%2Fevil.example%2Fadmin%2F",
                "%2F%5Cevil.example", "%2Fadmin%2F%0D%0ALocation%3A%20https%3A%2F%2Fevil.example")) {
            LoginBrowser.Page done = new LoginBrowser().logIn(server.url().resolve("/login?return_to=" + target),
                    "sub-freya", FREYA);
            assertEquals(200, done.status(), target + ": " + done.body());
            assertEquals("/oidc/callback", done.uri().getPath(), target + " ends on the server's own page");
            assertTrue(done.body().contains("The console is at"), done.body());
            assertTrue(done.hops().stream().noneMatch(hop -> "evil.example".equals(hop.getHost())), done.hops().toString());
        }
    }

    @Test
    void aSessionHasNoMoreThanTheUsersRole() {
        start(b -> b);
        assertEquals(200, browser.logIn(server.url().resolve("/login"), "sub-freya", FREYA).status());
        String csrf = JSON.readTree(get("/session").body()).get("csrfToken").asString();
        assertEquals("member", JSON.readTree(get("/session").body()).get("role").asString());
        HttpResponse<String> create = send("POST", "/api/v1/user", "{\"name\": \"thor\"}", Map.of("X-CSRF-Token", csrf));
        assertEquals(403, create.statusCode(), "a member may not manage users: " + create.body());
    }

    @Test
    void aMembersConsoleSessionShowsTheirOwnMachinesAndNoOneElses() {
        start(b -> b);
        assertEquals(200, browser.logIn(authUrl(pendingMachine()), "sub-freya", FREYA).status(), "freya's laptop");
        server.network.users().create(io.meshcontrol.core.auth.Caller.localAdmin(),
                new Users.NewUser("odin", "Odin", "odin@example.com", Role.MEMBER));
        server.network.pendingLogins().complete(io.meshcontrol.core.auth.Caller.localAdmin(), pendingMachine(), "odin");
        List<Node> all = server.network.nodes().list(io.meshcontrol.core.auth.Caller.localAdmin());
        long laptop = all.stream().filter(n -> n.userId() == server.network.users().requireByName("freya").id())
                .findFirst().orElseThrow().id();
        long odins = all.stream().filter(n -> n.id() != laptop).findFirst().orElseThrow().id();

        assertEquals(200, browser.logIn(server.url().resolve("/login"), "sub-freya", FREYA).status());
        assertEquals("member", JSON.readTree(get("/session").body()).get("role").asString());
        HttpResponse<String> list = get("/api/v1/node");
        assertEquals(200, list.statusCode(), list.body());
        JsonNode nodes = JSON.readTree(list.body()).get("nodes");
        assertEquals(1, nodes.size(), list.body());
        assertEquals(Long.toString(laptop), nodes.get(0).get("id").asString());
        assertEquals(200, get("/api/v1/node/" + laptop).statusCode());
        assertEquals(200, get("/api/v1/node/" + laptop + "/peers").statusCode(), "what its map carries");
        assertEquals(404, get("/api/v1/node/" + odins).statusCode(), "another's machine is not there for her");
        assertEquals(404, get("/api/v1/node/" + odins + "/peers").statusCode());
        String csrf = JSON.readTree(get("/session").body()).get("csrfToken").asString();
        HttpResponse<String> rename = send("POST", "/api/v1/node/" + laptop + "/rename", "{\"name\": \"mine\"}",
                Map.of("X-CSRF-Token", csrf));
        assertEquals(403, rename.statusCode(), "reading is all: " + rename.body());
        assertEquals(403, get("/api/v1/user").statusCode(), "nor other users");
    }

    @Test
    void aMemberWaitingForApprovalGetsNoSession() {
        start(b -> b);
        server.network.settings().update(io.meshcontrol.core.auth.Caller.localAdmin(), new Settings.Change(null, true, null, null));
        LoginBrowser.Page done = browser.logIn(server.url().resolve("/login"), "sub-freya", FREYA);
        assertEquals(403, done.status());
        assertTrue(done.body().contains("approve you first"), done.body());
        assertTrue(done.response().headers().allValues("Set-Cookie").stream().noneMatch(c -> c.startsWith("svc_session=")),
                done.response().headers().toString());
    }

    @Test
    void anIssuerThatCannotBeReachedStopsTheStartUnlessToldOtherwise() {
        TestServer.Builder unreachable = TestServer.in(folder).set("egress.allow_loopback_targets", "true")
                .set("oidc.issuer", "http://127.0.0.1:9/nowhere").set("oidc.client_id", "mesh");
        io.meshcontrol.core.MeshException refused = org.junit.jupiter.api.Assertions.assertThrows(
                io.meshcontrol.core.MeshException.class, unreachable::start);
        assertEquals("not starting: the OIDC issuer http://127.0.0.1:9/nowhere is unavailable (cannot fetch the OIDC "
                + "discovery document at http://127.0.0.1:9/nowhere/.well-known/openid-configuration: connection "
                + "refused); start it, or set oidc.only_start_if_oidc_is_available: false to start without it",
                refused.getMessage());
        server = TestServer.in(folder.resolve("lenient")).set("egress.allow_loopback_targets", "true")
                .set("oidc.issuer", "http://127.0.0.1:9/nowhere").set("oidc.client_id", "mesh")
                .set("oidc.only_start_if_oidc_is_available", "false").start();
        assertEquals(200, server.request("GET", "/version", null, null).statusCode());
        LoginBrowser.Page page = browser.open(server.url().resolve("/login"));
        assertEquals(502, page.status());
        assertTrue(page.body().contains("cannot be reached"), page.body());
    }

    private HttpResponse<String> get(String path) {
        return browser.send(HttpRequest.newBuilder(server.url().resolve(path)).GET().build());
    }

    private HttpResponse<String> send(String method, String path, String body, Map<String, String> headers) {
        HttpRequest.Builder request = HttpRequest.newBuilder(server.url().resolve(path)).method(method,
                body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (body != null) {
            request.header("Content-Type", "application/json");
        }
        headers.forEach(request::header);
        return browser.send(request.build());
    }
}
