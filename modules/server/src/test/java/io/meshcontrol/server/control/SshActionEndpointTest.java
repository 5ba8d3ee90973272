package io.meshcontrol.server.control;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.api.UserRequest;
import io.meshcontrol.core.auth.Caller;
import io.meshcontrol.core.model.Node;
import io.meshcontrol.core.netmap.AccessControl;
import io.meshcontrol.core.testing.AuthKey;
import io.meshcontrol.core.testing.Machine;
import io.meshcontrol.server.testing.TestServer;
import java.net.InetSocketAddress;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * SSH check mode as the destination machine's tailscaled drives it ({@code ssh/tailssh}): a GET of the check rule's
 * {@code holdAndDelegate} URL over its ts2021 connection, a {@code tailcfg.SSHAction} back (a message with the check
 * page and a follow-up URL), then follow-ups until it says accept or reject; the administrator decides through
 * {@code /api/v1}, as the console and {@code svc auth approve|reject} do.
 */
class SshActionEndpointTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(20);
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Pattern CHECK_PAGE = Pattern.compile("(http\\S+/ssh/check/)([A-Za-z0-9]+)");

    @TempDir
    Path folder;
    TestServer server;
    Node laptop;

    @BeforeEach
    void start() {
        server = TestServer.in(folder).reachableServerUrl().start();
        server.adminClient().createUser(new UserRequest("odin", null, "odin@example.com", "member"));
        server.network.policies().set(Caller.localAdmin(), """
                {"tagOwners": {"tag:server": ["autogroup:admin"]},
                 "ssh": [{"action": "check", "src": ["autogroup:member"], "dst": ["tag:server"],
                          "users": ["root"], "checkPeriod": "2h"}]}""", null);
        laptop = Machine.named("laptop").join(server.network, AuthKey.forUser("odin").create(server.network));
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private static JsonNode get(Http2TestClient http2, String path) throws Exception {
        Http2TestClient.Exchange answer = http2.request("GET", path, null);
        assertEquals(200, answer.status(TIMEOUT), new String(answer.body(TIMEOUT), StandardCharsets.UTF_8));
        return JSON.readTree(answer.body(TIMEOUT));
    }

    /** The path of a follow-up URL, which the client sends over its control connection. */
    private String pathOf(String url) {
        assertTrue(url.startsWith(server.url().toString()), url);
        return url.substring(server.url().toString().length());
    }

    @Test
    void heldSessionShowsTheCheckPageAndIsLetInOnceTheAdministratorApproves() throws Exception {
        InetSocketAddress address = new InetSocketAddress("127.0.0.1", server.server.httpAddress().getPort());
        try (NoiseTestClient noise = NoiseTestClient.connect(address, server.server.noisePublicKey(), 131);
                Http2TestClient http2 = new Http2TestClient(noise)) {
            Node target = Machine.named("server").machineKey(noise.machineKey.publicKey())
                    .join(server.network, AuthKey.forTags("tag:server").create(server.network));
            String first = "/machine/ssh/action/" + laptop.id() + "/to/" + target.id() + "?local_user=root";

            JsonNode hold = get(http2, first);
            assertFalse(hold.path("accept").asBoolean() || hold.path("reject").asBoolean(), hold.toString());
            Matcher page = CHECK_PAGE.matcher(hold.path("message").asString());
            assertTrue(page.find(), hold.toString());
            String authId = page.group(2);
            String followUp = hold.path("holdAndDelegate").asString();
            assertTrue(followUp.contains("auth_id=" + authId), followUp);

            // Without OIDC the page names the administrator's commands.
            HttpResponse<String> html = server.request("GET", "/ssh/check/" + authId, null, null);
            assertEquals(200, html.statusCode());
            assertTrue(html.body().contains("svc auth approve --auth-id " + authId), html.body());
            HttpResponse<String> listed = server.request("GET", "/api/v1/auth/ssh-check", server.localToken(), null);
            assertTrue(listed.body().contains("\"srcOwner\":\"odin\""), listed.body());

            Http2TestClient.Exchange waiting = http2.request("GET", pathOf(followUp), null);
            HttpResponse<String> approved = server.request("POST", "/api/v1/auth/approve", server.localToken(),
                    "{\"authId\": \"" + authId + "\"}");
            assertEquals(200, approved.statusCode(), approved.body());
            assertEquals(200, waiting.status(TIMEOUT));
            JsonNode accept = JSON.readTree(waiting.body(TIMEOUT));
            assertTrue(accept.path("accept").asBoolean(), accept.toString());

            assertEquals(404, server.request("GET", "/ssh/check/" + authId, null, null).statusCode(),
                    "a decided check has no page");
            assertEquals(404, server.request("POST", "/api/v1/auth/reject", server.localToken(),
                    "{\"authId\": \"nosuch\"}").statusCode());
            // Within checkPeriod the next session is let in at once.
            assertTrue(get(http2, first).path("accept").asBoolean());
        }
    }

    @Test
    void rejectionIsFinalAndOnlyTheDestinationMayAsk() throws Exception {
        InetSocketAddress address = new InetSocketAddress("127.0.0.1", server.server.httpAddress().getPort());
        try (NoiseTestClient noise = NoiseTestClient.connect(address, server.server.noisePublicKey(), 131);
                Http2TestClient http2 = new Http2TestClient(noise)) {
            Node target = Machine.named("server").join(server.network,
                    AuthKey.forTags("tag:server").create(server.network));
            String first = "/machine/ssh/action/" + laptop.id() + "/to/" + target.id() + "?local_user=root";
            assertEquals(403, http2.request("GET", first, null).status(TIMEOUT),
                    "this connection is not the destination's");
            assertEquals(400, http2.request("GET", "/machine/ssh/action/x/to/" + target.id() + "?local_user=root",
                    null).status(TIMEOUT));
        }
        Node target = server.network.nodes().list(Caller.localAdmin()).stream()
                .filter(n -> n.hostname().equals("server")).findFirst().orElseThrow();
        var checks = server.network.sshChecks();
        var held = (io.meshcontrol.core.state.SshChecks.Answer.Hold) checks.request(target.machineKey(), laptop.id(),
                target.id(), "root", new AccessControl(server.network.policies())::sshCheckPeriod);
        HttpResponse<String> rejected = server.request("POST", "/api/v1/auth/reject", server.localToken(),
                "{\"authId\": \"" + held.authId() + "\"}");
        assertEquals(200, rejected.statusCode(), rejected.body());
        HttpResponse<String> again = server.request("POST", "/api/v1/auth/approve", server.localToken(),
                "{\"authId\": \"" + held.authId() + "\"}");
        assertEquals(409, again.statusCode(), "a refusal is final: " + again.body());
        assertTrue(server.network.auditLog().recent("ssh.check.reject", 5).stream()
                .anyMatch(e -> e.target().equals(held.authId())));
    }

    @Test
    void undecidedFollowUpIsAnsweredWithTheSameFollowUpUrlToAskAgain() throws Exception {
        // The same endpoint with a short wait, so that a follow-up ends undecided.
        server.server.machineRoutes().add("GET", "/test/ssh/action/{src}/to/{dst}",
                new SshActionEndpoint(server.network.sshChecks(),
                        new AccessControl(server.network.policies())::sshCheckPeriod, server.url().toString(),
                        Duration.ofMillis(100)));
        InetSocketAddress address = new InetSocketAddress("127.0.0.1", server.server.httpAddress().getPort());
        try (NoiseTestClient noise = NoiseTestClient.connect(address, server.server.noisePublicKey(), 131);
                Http2TestClient http2 = new Http2TestClient(noise)) {
            Node target = Machine.named("server").machineKey(noise.machineKey.publicKey())
                    .join(server.network, AuthKey.forTags("tag:server").create(server.network));
            String route = "/ssh/action/" + laptop.id() + "/to/" + target.id() + "?local_user=root";
            JsonNode hold = get(http2, "/test" + route);
            String followUp = hold.path("holdAndDelegate").asString();
            String authId = followUp.substring(followUp.indexOf("auth_id=") + "auth_id=".length());
            assertEquals(server.url() + "/machine" + route + "&auth_id=" + authId, followUp);

            JsonNode again = get(http2, "/test" + route + "&auth_id=" + authId);
            assertEquals(followUp, again.path("holdAndDelegate").asString());
            assertEquals("", again.path("message").asString(""), "the page was shown once already");
            assertFalse(again.path("accept").asBoolean() || again.path("reject").asBoolean());
        }
    }

    @Test
    void messageNamesTheCheckPage() {
        assertEquals("# This SSH session needs a check: prove it is you.\n# Open https://mesh.example/ssh/check/x\n"
                + "# and log in as the owner of the machine you connect from (or ask an administrator to approve).\n",
                SshActionEndpoint.message("https://mesh.example/ssh/check/x"));
    }
}
