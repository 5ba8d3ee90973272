package io.meshcontrol.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.core.model.Node;
import io.meshcontrol.core.testing.Machine;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Pre-auth keys, nodes and settings through the real CLI. Machines register here through the server's
 * registration service with the key the CLI printed (the real-client tests drive the same path with tailscaled).
 */
class NodesCliTest {

    @TempDir
    Path folder;
    @RegisterExtension
    final ServerWithCli cli = ServerWithCli.in(() -> folder);

    @BeforeEach
    void start() {
        assertEquals(0, svc("users", "create", "--name", "odin").exitCode());
    }

    private CliRun svc(String... args) {
        return cli.run(args);
    }

    private Node join(String authKey, String hostname) {
        return Machine.named(hostname).join(cli.server().network, authKey);
    }

    @Test
    void listShowsAConnectedNodeAsSeenNow() {
        String key = svc("preauthkeys", "create", "--user", "odin", "--reusable").firstLine();
        Node laptop = join(key, "laptop");
        cli.server().network.presence().connected(laptop);
        cli.server().network.presence().disconnected(laptop);
        String offline = svc("nodes", "list").out();
        assertTrue(offline.lines().anyMatch(line -> line.contains("laptop") && !line.endsWith("now")), offline);

        cli.server().network.presence().connected(laptop);
        String online = svc("nodes", "list").out();
        assertTrue(online.lines().anyMatch(line -> line.contains("laptop") && line.endsWith("now")), online);
        assertTrue(svc("nodes", "show", "-i", "laptop", "-o", "json").out().contains("\"online\" : true"));
    }

    @Test
    void bulkApprovesManyNodesWithOneRequestAndNamesUnknownOnes() {
        assertEquals(0, svc("settings", "set", "--device-approval", "on").exitCode());
        String key = svc("preauthkeys", "create", "--user", "odin", "--reusable").firstLine();
        String a = Long.toString(join(key, "a").id());
        String b = Long.toString(join(key, "b").id());

        CliRun unknown = svc("nodes", "bulk", "approve", a, "999999", b);
        assertEquals(1, unknown.exitCode(), unknown.toString());
        assertTrue(unknown.err().contains("999999") && unknown.err().contains("nothing was changed"), unknown.err());

        CliRun approved = svc("nodes", "bulk", "approve", a, b, "-o", "json");
        assertEquals(0, approved.exitCode(), approved.toString());
        assertTrue(approved.out().contains("\"changed\" : [ \"" + a + "\", \"" + b + "\" ]"), approved.out());
        assertTrue(cli.server().network.snapshots().current().nodes().values().stream().allMatch(Node::authorized));
    }

    @Test
    void preAuthKeyLifecycle() {
        CliRun created = svc("preauthkeys", "create", "--user", "odin", "--reusable", "--expiration", "24h");
        assertEquals(0, created.exitCode(), created.toString());
        assertTrue(created.firstLine().startsWith("svckey-auth-"));
        join(created.firstLine(), "laptop");
        CliRun listed = svc("preauthkeys", "list", "-o", "json");
        assertTrue(listed.out().contains("\"useCount\" : 1"), listed.out());
        assertEquals(0, svc("preauthkeys", "delete", "--id", "1").exitCode());
        CliRun after = svc("preauthkeys", "list");
        assertTrue(after.out().contains("invalid: the key was revoked"), after.out());

        CliRun neither = svc("preauthkeys", "create");
        assertEquals(1, neither.exitCode());
        assertEquals("svc: a pre-auth key needs a user or at least one tag (HTTP 400)\n", neither.err());
    }

    @Test
    void preAuthKeyListShowsTheDescription() {
        assertEquals(0, svc("preauthkeys", "create", "--user", "odin", "--description", "lab servers").exitCode());
        String table = svc("preauthkeys", "list").out();
        int column = table.lines().findFirst().orElseThrow().indexOf("  DESCRIPTION  ") + 2;
        assertTrue(column > 2, table);
        assertTrue(table.lines().skip(1).findFirst().orElseThrow().substring(column).startsWith("lab servers  "), table);
    }

    @Test
    void policyGetAndSetKeepTheTextAndRefuseBadOnes() throws IOException {
        Path file = folder.resolve("policy.hujson");
        String text = "{\n  // servers\n  \"tagOwners\": {\"tag:server\": [\"autogroup:admin\"],},\n}\n";
        Files.writeString(file, text);
        CliRun set = svc("policy", "set", "--file", file.toString());
        assertEquals(0, set.exitCode(), set.toString());
        assertEquals(text, svc("policy", "get").out());

        Files.writeString(file, "{\"tagOwners\": {\"tag:x\": [\"group:none\"]}}");
        CliRun refused = svc("policy", "set", "--file", file.toString());
        assertEquals(1, refused.exitCode());
        assertEquals("svc: tagOwners[\"tag:x\"]: group not found: \"group:none\" (line 1, column 26)"
                + " (HTTP 400)\n", refused.err());
        assertEquals(text, svc("policy", "get").out(), "a rejected policy changes nothing");
    }

    @Test
    void nodeManagementByNameOrId() throws IOException {
        Path policy = folder.resolve("policy.hujson");
        Files.writeString(policy, "{\"tagOwners\": {\"tag:server\": [\"autogroup:admin\"]}}");
        assertEquals(0, svc("policy", "set", "--file", policy.toString()).exitCode());
        String key = svc("preauthkeys", "create", "--user", "odin", "--reusable").firstLine();
        join(key, "laptop");
        join(key, "desktop");
        CliRun list = svc("nodes", "list");
        assertTrue(list.out().contains("laptop") && list.out().contains("100.64.0.1"), list.out());

        assertEquals(0, svc("nodes", "rename", "-i", "laptop", "--name", "work").exitCode());
        CliRun taken = svc("nodes", "rename", "-i", "desktop", "--name", "work");
        assertEquals(1, taken.exitCode());
        assertTrue(taken.err().contains("already exists (HTTP 409)"), taken.err());

        CliRun undefined = svc("nodes", "tag", "-i", "work", "--tag", "tag:nope");
        assertEquals("svc: requested tags [tag:nope] are invalid or not permitted (HTTP 400)\n", undefined.err());
        CliRun tagged = svc("nodes", "tag", "-i", "work", "--tag", "tag:server", "-o", "json");
        assertEquals(0, tagged.exitCode(), tagged.toString());
        assertTrue(tagged.out().contains("\"tag:server\"") && !tagged.out().contains("\"user\""), tagged.out());

        assertTrue(svc("nodes", "expire", "-i", "1").out().contains("expired"));
        assertEquals(0, svc("nodes", "delete", "-i", "desktop").exitCode());
        assertTrue(!svc("nodes", "list").out().contains("desktop"));
        CliRun unknown = svc("nodes", "show", "-i", "nothing");
        assertEquals("svc: no node named \"nothing\"\n", unknown.err());
    }

    @Test
    void settingsShowTheKeyDurationAsANumber() {
        assertEquals(List.of("DEVICE APPROVAL  USER APPROVAL  KEY DURATION DAYS", "off              off            0"),
                svc("settings", "show").out().lines().toList());
        assertEquals(List.of("DEVICE APPROVAL  USER APPROVAL  KEY DURATION DAYS", "off              off            30"),
                svc("settings", "set", "--key-duration-days", "30").out().lines().toList());
    }

    @Test
    void deviceApprovalThroughSettingsAndApprove() {
        assertEquals(0, svc("settings", "set", "--device-approval", "on").exitCode());
        assertTrue(svc("settings", "show").out().contains("on"));
        String key = svc("preauthkeys", "create", "--user", "odin").firstLine();
        join(key, "waiting");
        assertTrue(svc("nodes", "list").out().contains("waiting for approval"));
        assertTrue(svc("nodes", "approve", "-i", "waiting").out().contains("approved"));
        CliRun again = svc("nodes", "approve", "-i", "waiting");
        assertEquals(1, again.exitCode());
        assertTrue(again.err().contains("already approved"), again.err());
    }

    @Test
    void authRegisterCompletesAnInteractiveLogin() throws Exception {
        String authId = cli.server().network.pendingLogins().start(Machine.named("kiosk").request(), false);
        var page = cli.server().request("GET", "/register/" + authId, null, null);
        assertEquals(303, page.statusCode(), "to the console's register page");

        CliRun registered = svc("auth", "register", "--user", "odin", "--auth-id", authId);
        assertEquals(0, registered.exitCode(), registered.toString());
        assertTrue(registered.out().contains("kiosk") && registered.out().contains("odin"), registered.out());
        assertTrue(cli.server().network.pendingLogins().await(authId, java.time.Duration.ZERO).isEmpty(), "no longer pending");

        CliRun again = svc("auth", "register", "--user", "odin", "--auth-id", authId);
        assertEquals(1, again.exitCode());
        assertTrue(again.err().startsWith("svc: no pending login with auth id"), again.err());
        assertEquals(404, cli.server().request("GET", "/register/" + authId, null, null).statusCode());
    }

    @Test
    void authRegisterGivesTagsAndApprovesOrRefusesTheLogin() throws Exception {
        cli.server().network.policies().set(io.meshcontrol.core.auth.Caller.localAdmin(), """
                {"tagOwners": {"tag:kiosk": []}, "acls": [{"action": "accept", "src": ["*"], "dst": ["*:*"]}]}""",
                null);
        cli.server().network.settings().update(io.meshcontrol.core.auth.Caller.localAdmin(),
                new io.meshcontrol.core.state.Settings.Change(true, null, null, null));
        String authId = cli.server().network.pendingLogins().start(Machine.named("kiosk").request(), false);
        CliRun registered = svc("auth", "register", "--tags", "tag:kiosk", "--approve", "--auth-id", authId,
                "-o", "json");
        assertEquals(0, registered.exitCode(), registered.toString());
        assertTrue(registered.out().contains("\"tags\" : [ \"tag:kiosk\" ]"), registered.out());
        assertTrue(registered.out().contains("\"authorized\" : true"), registered.out());

        String refused = cli.server().network.pendingLogins().start(Machine.named("stray").request(), false);
        CliRun refusal = svc("auth", "refuse-login", "--auth-id", refused);
        assertEquals(0, refusal.exitCode(), refusal.toString());
        assertFalse(cli.server().network.pendingLogins().isPending(refused));
        CliRun neither = svc("auth", "register", "--auth-id", authId);
        assertEquals(1, neither.exitCode());
        assertTrue(neither.err().startsWith("svc: auth/register needs"), neither.err());
    }

    @Test
    void routesAreListedAndApprovedByNameOrId() {
        String key = svc("preauthkeys", "create", "--user", "odin", "--reusable").firstLine();
        join(key, "laptop");
        Machine.named("router").advertising("10.1.0.0/16", "192.168.1.0/24").join(cli.server().network, key);

        CliRun listed = svc("nodes", "list-routes");
        assertEquals(0, listed.exitCode(), listed.toString());
        assertEquals(List.of("ID  NAME    APPROVED  AVAILABLE                    SERVING  GLOBAL EXIT",
                "2   router            10.1.0.0/16, 192.168.1.0/24"), listed.out().lines().toList(),
                "only nodes with routes");

        CliRun approved = svc("nodes", "approve-routes", "-i", "router", "--routes", "10.1.0.0/16");
        assertEquals(0, approved.exitCode(), approved.toString());
        assertTrue(approved.out().lines().toList().get(1).matches("10\\.1\\.0\\.0/16 +10\\.1\\.0\\.0/16, 192.*"),
                approved.out());
        CliRun json = svc("nodes", "show", "-i", "2", "-o", "json");
        assertTrue(json.out().contains("\"approved\" : [ \"10.1.0.0/16\" ]"), json.out());

        CliRun exit = svc("nodes", "approve-routes", "-i", "2", "--routes", "::/0,10.1.0.0/16", "-o", "json");
        assertTrue(exit.out().contains("\"approved\" : [ \"0.0.0.0/0\", \"10.1.0.0/16\", \"::/0\" ]"), exit.out());

        CliRun bad = svc("nodes", "approve-routes", "-i", "router", "--routes", "10.1.0.1/16");
        assertEquals(1, bad.exitCode());
        assertEquals("svc: route \"10.1.0.1/16\" has host bits set; the prefix is 10.1.0.0/16 (HTTP 400)\n",
                bad.err());

        assertEquals(0, svc("nodes", "approve-routes", "-i", "router", "--routes", "").exitCode());
        assertTrue(svc("nodes", "show", "-i", "router", "-o", "json").out().contains("\"approved\" : [ ]"));
    }

    @Test
    void routeChangesPrintTheAnswerOfTheirOneRequest() throws Exception {
        String key = svc("preauthkeys", "create", "--user", "odin", "--reusable").firstLine();
        Machine.named("router").advertising("10.1.0.0/16", "0.0.0.0/0", "::/0").join(cli.server().network, key);
        String nodeReads = "svc_http_requests_total{method=\"GET\",route=\"/api/v1/node/{id}\"";
        assertTrue(!cli.server().scrapeMetrics().body().contains(nodeReads));

        CliRun approved = svc("nodes", "approve-routes", "-i", "1", "--routes", "10.1.0.0/16", "-o", "json");
        assertEquals(0, approved.exitCode(), approved.toString());
        assertTrue(approved.out().startsWith("{\n  \"approved\" : [ \"10.1.0.0/16\" ]"), approved.out());
        CliRun marked = svc("nodes", "global-exit-node", "-i", "1", "-o", "json");
        assertEquals(0, marked.exitCode(), marked.toString());
        assertTrue(marked.out().contains("\"globalExitNode\" : true"), marked.out());
        String metrics = cli.server().scrapeMetrics().body();
        assertTrue(metrics.contains("svc_http_requests_total{method=\"POST\",route=\"/api/v1/node/{id}/routes\""),
                metrics);
        assertTrue(!metrics.contains(nodeReads), "the node was not read again");
    }

    @Test
    void aGlobalExitNodeIsMarkedWithAPriorityAndRevoked() {
        String key = svc("preauthkeys", "create", "--user", "odin", "--reusable").firstLine();
        Machine.named("exit").advertising("0.0.0.0/0", "::/0").join(cli.server().network, key);

        CliRun marked = svc("nodes", "global-exit-node", "--identifier", "exit", "--priority", "30");
        assertEquals(0, marked.exitCode(), marked.toString());
        assertTrue(marked.out().lines().toList().get(1).matches("0\\.0\\.0\\.0/0, ::/0 +.*priority 30"),
                marked.out());
        CliRun json = svc("nodes", "show", "-i", "exit", "-o", "json");
        assertTrue(json.out().contains("\"globalExitNode\" : true") && json.out().contains("\"exitNodePriority\" : 30"),
                json.out());

        CliRun revoked = svc("nodes", "global-exit-node", "-i", "1", "--revoke");
        assertEquals(0, revoked.exitCode(), revoked.toString());
        assertTrue(svc("nodes", "show", "-i", "1", "-o", "json").out().contains("\"globalExitNode\" : false"));

        CliRun negative = svc("nodes", "global-exit-node", "-i", "exit", "--priority", "-1");
        assertEquals(1, negative.exitCode());
        assertEquals("svc: \"priority\" must be 0 or more, got -1 (HTTP 400)\n", negative.err());
        CliRun both = svc("nodes", "global-exit-node", "-i", "exit", "--priority", "2", "--revoke");
        assertEquals(1, both.exitCode());
        assertEquals(1, both.err().lines().count(), both.err());
    }

    @Test
    void aNodeAdvertisingNoExitRouteIsRefusedAsGlobalExitNodeInOneLine() {
        String key = svc("preauthkeys", "create", "--user", "odin").firstLine();
        Machine.named("subnet").advertising("10.2.0.0/16").join(cli.server().network, key);

        CliRun refused = svc("nodes", "global-exit-node", "-i", "subnet");
        assertEquals(1, refused.exitCode(), refused.toString());
        assertEquals(1, refused.err().lines().count(), refused.err());
        assertTrue(refused.err().startsWith("svc: node subnet advertises no exit route (0.0.0.0/0 or ::/0)"),
                refused.err());
        assertTrue(svc("nodes", "show", "-i", "subnet", "-o", "json").out().contains("\"globalExitNode\" : false"));
    }
}
