package io.meshcontrol.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.api.PreAuthKeyRequest;
import io.meshcontrol.core.auth.Caller;
import io.meshcontrol.server.testing.LoginBrowser;
import io.meshcontrol.server.testing.OidcIssuerFixture;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Tailscale SSH check mode with real clients: the destination runs {@code tailscale up --ssh} (userspace
 * networking), the source runs {@code tailscale ssh root@server id -un}. Under a {@code check} rule the session is
 * held and the terminal shows the check page; the owner's fresh login at the issuer (a real one, with its login
 * form) or an administrator's {@code svc auth approve} lets the command run; another person's login or
 * {@code svc auth reject} refuses it; within {@code checkPeriod} the next session runs without asking, and once
 * the server's clock has moved past it, the next one asks again.
 */
class SshCheckTest {

    private static final Duration SOON = Duration.ofSeconds(60);
    private static final Pattern CHECK_URL = Pattern.compile("(https?://\\S+/ssh/check/[A-Za-z0-9]+)");
    private static final Map<String, Object> FREYA = Map.of("email", "freya@example.com", "email_verified", true,
            "preferred_username", "freya", "name", "Freya");
    private static final Map<String, Object> LOKI = Map.of("email", "loki@example.com", "email_verified", true,
            "preferred_username", "loki", "name", "Loki");
    private static OidcIssuerFixture issuer;

    @RegisterExtension
    final TailscaleNodes nodes = new TailscaleNodes();

    @TempDir
    Path folder;

    private TestNetwork network;

    static Stream<ClientVersion> versions() {
        return ClientVersions.all();
    }

    @BeforeAll
    static void startIssuer() {
        issuer = OidcIssuerFixture.startWithLoginForm();
    }

    @AfterAll
    static void stopIssuer() {
        issuer.close();
    }

    @AfterEach
    void stop() throws Exception {
        if (network != null) {
            network.close();
        }
    }

    /** {@code tailscale ssh root@server id -un}, started; it prints the check URL if the session is held. */
    private static InteractiveLogin ssh(TailscaleNode from) {
        return from.cliAsync(CHECK_URL, "ssh", "root@server", "id", "-un");
    }

    private static String authId(URI checkUrl) {
        String path = checkUrl.getPath();
        return path.substring(path.lastIndexOf('/') + 1);
    }

    private static void ran(InteractiveLogin session) {
        CliResult done = session.await(SOON);
        assertEquals(0, done.exitCode(), done.describe());
        assertEquals("root", done.stdout().strip(), done.describe());
    }

    private static void refused(InteractiveLogin session) {
        CliResult done = session.await(SOON);
        assertFalse(done.ok(), done.describe());
        assertFalse(done.stdout().contains("root"), "the command must not have run: " + done.describe());
    }

    @ParameterizedTest(name = "tailscale {0}")
    @MethodSource("versions")
    void checkRuleHoldsTheSessionUntilTheOwnerLogsInAgainOrAnAdministratorDecides(ClientVersion version)
            throws Exception {
        network = TestNetwork.withEmbeddedRelay(folder, nodes, server -> server.reachableServerUrl()
                .set("egress.allow_loopback_targets", "true")
                .set("oidc.issuer", issuer.issuer("people"))
                .set("oidc.client_id", "mesh")
                .set("oidc.client_secret", "s3cret"));
        // Freya's laptop joins through her login; the server is tagged and runs Tailscale SSH.
        TailscaleNode laptop = network.node(version, "laptop");
        try (InteractiveLogin up = laptop.upAsync(network.loginServer(), "laptop")) {
            new LoginBrowser().logIn(up.awaitAuthUrl(SOON), "sub-freya", FREYA);
            up.await(SOON).requireOk();
        }
        network.server().network.policies().set(Caller.localAdmin(), """
                {"tagOwners": {"tag:server": ["autogroup:admin"]},
                 "acls": [{"action": "accept", "src": ["*"], "dst": ["*:*"]}],
                 "ssh": [{"action": "check", "src": ["autogroup:member"], "dst": ["tag:server"],
                          "users": ["root"], "checkPeriod": "1h"}]}""", null);
        String serverKey = network.admin().createPreAuthKey(new PreAuthKeyRequest(null, List.of("tag:server"), false,
                false, true, "", null)).secret();
        TailscaleNode server = network.node(version, "server");
        server.up(network.loginServer(), serverKey, "server", "--ssh").requireOk();
        laptop.awaitStatus("the server online", status -> status.peer("server").filter(PeerStatus::online).isPresent(), SOON);
        laptop.ping("server").requireOk();

        // 1. Held: the terminal shows the check page; Freya's fresh login lets the command run.
        InteractiveLogin first = ssh(laptop);
        URI page = first.awaitAuthUrl(SOON);
        LoginBrowser.Page checked = new LoginBrowser().logIn(page, "sub-freya", FREYA);
        assertEquals(200, checked.status(), checked.body());
        ran(first);

        // 2. Within checkPeriod the next session runs without asking.
        CliResult again = laptop.cli(SOON, "ssh", "root@server", "id", "-un");
        assertEquals("root", again.stdout().strip(), again.describe());
        assertFalse(CHECK_URL.matcher(again.stderr()).find(), "no check within the period: " + again.describe());

        // 3. Past the period it asks again; a login by another person refuses the session.
        network.clock().advance(Duration.ofHours(1));
        InteractiveLogin third = ssh(laptop);
        LoginBrowser.Page loki = new LoginBrowser().logIn(third.awaitAuthUrl(SOON), "sub-loki", LOKI);
        assertEquals(403, loki.status(), loki.body());
        refused(third);

        // 4. Without a login, the administrator decides: a rejection refuses, an approval lets it run.
        InteractiveLogin fourth = ssh(laptop);
        network.svc("auth", "reject", "--auth-id", authId(fourth.awaitAuthUrl(SOON)));
        refused(fourth);
        InteractiveLogin fifth = ssh(laptop);
        network.svc("auth", "approve", "--auth-id", authId(fifth.awaitAuthUrl(SOON)));
        ran(fifth);

        List<String> audited = network.server().network.auditLog().recent(null, 100).stream()
                .map(entry -> entry.action()).filter(action -> action.startsWith("ssh.check.")).toList();
        assertEquals(4, audited.stream().filter("ssh.check.request"::equals).count(), audited.toString());
        assertEquals(2, audited.stream().filter("ssh.check.approve"::equals).count(), audited.toString());
        assertEquals(2, audited.stream().filter("ssh.check.reject"::equals).count(), audited.toString());
        assertTrue(network.admin().sshChecks().isEmpty(), "nothing left waiting");
    }

    /**
     * Without OIDC the check page names the administrator's commands, and the console lists the waiting check
     * beside the machines: its Approve button lets the session run.
     */
    @org.junit.jupiter.api.Test
    void withoutOidcTheConsoleShowsTheWaitingCheckAndApprovesIt() throws Exception {
        try (ConsoleOnNetwork console = ConsoleOnNetwork.start(folder, nodes)) {
            network = null; // the console closes its own network
            TestNetwork net = console.network();
            net.server().network.policies().set(Caller.localAdmin(), """
                    {"tagOwners": {"tag:server": ["autogroup:admin"]},
                     "acls": [{"action": "accept", "src": ["*"], "dst": ["*:*"]}],
                     "ssh": [{"action": "check", "src": ["alice@example.com"], "dst": ["tag:server"],
                              "users": ["root"]}]}""", null);
            ClientVersion version = ClientVersions.newest();
            TailscaleNode laptop = net.joined(version, "laptop", console.admin().createPreAuthKey(
                    new PreAuthKeyRequest("alice", null, false, false, true, "", null)).secret());
            TailscaleNode server = net.node(version, "server");
            server.up(net.loginServer(), console.admin().createPreAuthKey(new PreAuthKeyRequest(null,
                    List.of("tag:server"), false, false, true, "", null)).secret(), "server", "--ssh").requireOk();
            laptop.awaitStatus("the server online", status -> status.peer("server").filter(PeerStatus::online)
                    .isPresent(), SOON);

            InteractiveLogin session = ssh(laptop);
            URI page = session.awaitAuthUrl(SOON);
            LoginBrowser.Page shown = new LoginBrowser().open(page);
            assertEquals(200, shown.status());
            assertTrue(shown.body().contains("svc auth approve --auth-id " + authId(page)), shown.body());

            console.browser().signIn(console.admin().createApiKey(new io.meshcontrol.api.ApiKeyRequest("alice",
                    List.of(), "console test", "24h")).secret());
            console.browser().waitFor(org.openqa.selenium.By.cssSelector(
                    "tr[data-ssh-check='" + authId(page) + "']"));
            console.browser().assertAccessible("machines with a waiting SSH check");
            console.browser().screenshot("console-ssh-check");
            console.browser().click(org.openqa.selenium.By.xpath("//button[normalize-space()='Approve']"));
            ran(session);
            console.browser().waitGone(org.openqa.selenium.By.cssSelector("tr[data-ssh-check]"));
        }
    }
}
