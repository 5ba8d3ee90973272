package io.meshcontrol.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.api.ApiKeyRequest;
import io.meshcontrol.api.MeshClient;
import io.meshcontrol.api.NodeView;
import io.meshcontrol.api.PreAuthKeyRequest;
import io.meshcontrol.api.SettingsView;
import io.meshcontrol.api.UserRequest;
import io.meshcontrol.core.testing.Await;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;

/**
 * The browser console (docs/console.md) in Debian's chromium against a real server and real {@code tailscaled}:
 * what a person does there, each page checked with axe-core and photographed into target/console-screenshots.
 */
class ConsoleTest {

    private static final Duration SOON = Duration.ofSeconds(30);
    private static final String PASSING_POLICY = """
            {
              // anyone may reach SSH, nothing else
              "acls": [{"action": "accept", "src": ["*"], "dst": ["*:22"]}],
              "tests": [{"src": "100.64.0.1", "accept": ["100.64.0.2:22"], "deny": ["100.64.0.2:80"]}],
            }
            """;
    private static final String FAILING_POLICY = PASSING_POLICY.replace("\"deny\": [\"100.64.0.2:80\"]",
            "\"deny\": [\"100.64.0.2:22\"]");

    @RegisterExtension
    final TailscaleNodes nodes = new TailscaleNodes();

    @TempDir
    Path folder;

    private ConsoleOnNetwork console;
    private TestNetwork network;
    private ConsoleBrowser browser;

    @AfterEach
    void stop() throws Exception {
        if (console != null) {
            console.close();
        }
    }

    private MeshClient start() {
        console = ConsoleOnNetwork.start(folder, nodes);
        network = console.network();
        browser = console.browser();
        return console.admin();
    }

    private static String key(MeshClient admin, String owner, List<String> scopes) {
        return admin.createApiKey(new ApiKeyRequest(owner, scopes, "console test", "24h")).secret();
    }

    @Test
    void anAdministratorApprovesAWaitingMachineAndItsRoute() throws Exception {
        MeshClient admin = start();
        admin.updateSettings(new SettingsView(true, null, 30));
        String joinKey = admin.createPreAuthKey(new PreAuthKeyRequest("alice", null, false, false, false, "t", null))
                .secret();
        TailscaleNode held = network.node(ClientVersions.newest(), "held");
        try (InteractiveLogin up = held.upAsync(network.loginServer(), "held", "--auth-key=" + joinKey,
                "--advertise-routes=10.77.0.0/24")) {
            held.awaitStatus("waiting for approval", s -> s.backendState() == BackendState.NeedsMachineAuth, SOON);

            browser.signIn(key(admin, "alice", List.of()));
            browser.waitFor(By.cssSelector("tr[data-machine='held']"));
            browser.waitForText("needs approval");
            browser.assertAccessible("machines");
            browser.screenshot("console-machines");

            browser.click(By.linkText("held"));
            browser.click(By.xpath("//button[normalize-space()='Approve machine']"));
            held.awaitStatus("running after approval in the console", NodeStatus::isRunning, SOON);
            up.await(SOON).requireOk();

            browser.click(By.xpath("//button[normalize-space()='Approve 10.77.0.0/24']"));
            browser.waitFor(By.xpath("//button[normalize-space()='Revoke 10.77.0.0/24']"));
            assertEquals(List.of("10.77.0.0/24"), network.view("held").routes().approved());
            browser.waitForText("approved, serving");
            browser.assertAccessible("machine");
            browser.screenshot("console-machine");

            assertNotNull(network.view("held").keyExpiry(), "30-day keys expire");
            browser.click(By.id("machine-key-expiry"));
            browser.waitFor(By.cssSelector("dd[data-key-expiry='off']"));
            assertNull(network.view("held").keyExpiry(), "key expiry turned off in the console");
            browser.click(By.id("machine-key-expiry"));
            browser.waitFor(By.cssSelector("dd[data-key-expiry='on']"));
            assertNotNull(network.view("held").keyExpiry(), "and on again");
        }
    }

    @Test
    void aMachineAddedWithTheShownCommandAppearsWithoutAReload() throws Exception {
        MeshClient admin = start();
        browser.signIn(key(admin, "alice", List.of()));
        browser.go("add");
        browser.click(By.xpath("//button[normalize-space()='Make the key']"));
        String command = browser.waitFor(By.cssSelector("pre[data-command]")).getText();
        String prefix = "tailscale up --login-server=" + network.server().url() + " --auth-key=";
        assertTrue(command.startsWith(prefix), command);
        browser.assertAccessible("add a machine");
        browser.screenshot("console-add-machine");

        browser.go("machines");
        network.joined(ClientVersions.newest(), "laptop", command.substring(prefix.length()));
        browser.waitFor(By.cssSelector("tr[data-machine='laptop']"));
        browser.waitForText("online");
        // The facts a real client reports: its OS, its release and the endpoints it can be reached at.
        String release = ClientVersions.newest().version().replaceFirst("^v", "");
        NodeView.ClientView client = network.view("laptop").client();
        assertEquals("linux", client.os());
        assertEquals(release, client.version());
        Await.until("the client reports its endpoints", () -> !network.view("laptop").client().endpoints().isEmpty());
        browser.waitFor(By.xpath("//tr[@data-machine='laptop']//td[@data-label='OS and client'][contains(., '"
                + release + "')]"));
    }

    @Test
    void thePolicyIsSavedOnlyWhenItsTestsPassAndAConcurrentSaveIsNeverOverwritten() {
        MeshClient admin = start();
        browser.signIn(key(admin, "alice", List.of()));
        browser.go("policy");
        browser.replaceText(By.id("policy-text"), PASSING_POLICY.replace("\"accept\", \"src\"", "\"accept\" \"src\""));
        browser.click(By.xpath("//button[normalize-space()='Run tests']"));
        browser.waitForText("parsing policy: line 3");
        assertEquals("3", browser.waitFor(By.cssSelector(".gutter .err")).getText().strip(),
                "the line the server names is marked");

        browser.replaceText(By.id("policy-text"), FAILING_POLICY);
        browser.click(By.xpath("//button[normalize-space()='Save']"));
        browser.waitForText("test(s) failed");
        browser.assertAccessible("access controls");
        browser.screenshot("console-policy-failing-test");
        assertNotEquals(FAILING_POLICY, admin.policy().policy());

        browser.replaceText(By.id("policy-text"), PASSING_POLICY);
        browser.click(By.xpath("//button[normalize-space()='Run tests']"));
        browser.waitForText("1 test(s)");
        browser.click(By.xpath("//button[normalize-space()='Save']"));
        browser.waitForText("Saved.");
        assertEquals(PASSING_POLICY, admin.policy().policy());
        browser.screenshot("console-policy");

        // Someone else saves in between: the console's save is refused, shown, and overwrites nothing.
        String theirs = PASSING_POLICY.replace("nothing else", "changed elsewhere");
        admin.setPolicy(theirs);
        browser.replaceText(By.id("policy-text"), PASSING_POLICY.replace("nothing else", "mine"));
        browser.click(By.xpath("//button[normalize-space()='Save']"));
        browser.waitForText("Someone saved the policy after you opened it");
        assertEquals(theirs, admin.policy().policy());
    }

    @Test
    void anApiKeyIsCreatedWithScopesAndRotatedItsSecretShownOnce() {
        MeshClient admin = start();
        browser.signIn(key(admin, "alice", List.of()));
        browser.go("keys");
        browser.type(By.id("apikey-description"), "ci");
        browser.type(By.id("apikey-scopes"), "devices:core:read");
        browser.click(By.xpath("//button[normalize-space()='Create API key']"));
        String first = browser.waitFor(By.cssSelector("code[data-secret]")).getText();
        assertEquals(200, network.server().request("GET", "/api/v1/node", first, null).statusCode());
        assertEquals(403, network.server().request("GET", "/api/v1/user", first, null).statusCode(),
                "only the scope chosen");
        browser.assertAccessible("keys");
        browser.screenshot("console-keys");

        assertTrue(browser.clickAndConfirm(By.xpath("//button[normalize-space()='Rotate ci']")).contains("stops working"),
                "rotating asks first");
        browser.waitForText("The rotated key ci");
        String second = browser.waitFor(By.cssSelector("code[data-secret]")).getText();
        assertNotEquals(first, second);
        assertEquals(401, network.server().request("GET", "/api/v1/node", first, null).statusCode());
        assertEquals(200, network.server().request("GET", "/api/v1/node", second, null).statusCode());

        browser.go("machines");
        assertFalse(browser.present(By.cssSelector("code[data-secret]")), "a secret is shown only once");
    }

    @Test
    void anAuditorSeesEveryPageAndCanChangeNothing() {
        MeshClient admin = start();
        admin.createUser(new UserRequest("audrey", null, null, "auditor"));
        String joinKey = admin.createPreAuthKey(new PreAuthKeyRequest("alice", null, false, false, true, "t", null))
                .secret();
        network.joined(ClientVersions.newest(), "server", joinKey);
        browser.signIn(key(admin, "audrey", List.of()));
        browser.waitFor(By.cssSelector("tr[data-machine='server']"));
        browser.click(By.linkText("server"));
        browser.waitForText("Host name");
        assertFalse(browser.present(By.id("manage-title")), "no changes offered on the machine page");
        browser.go("policy");
        browser.waitForText("may read the policy but not change it");
        assertFalse(browser.present(By.xpath("//button[normalize-space()='Save']")));
        browser.go("users");
        browser.waitFor(By.cssSelector("tr[data-user='audrey']"));
        assertFalse(browser.present(By.id("user-name")), "no form to create users");
        browser.assertAccessible("users (auditor)");
        browser.screenshot("console-users-auditor");
        browser.go("keys");
        assertFalse(browser.present(By.id("apikey-description")));
        browser.go("settings");
        browser.waitFor(By.cssSelector("[data-tailnet-id]"));
        browser.waitFor(By.cssSelector("[data-relay-settings]"));
        browser.assertAccessible("settings");
        browser.screenshot("console-settings");

        // What the page hides, the server refuses: the session's own CSRF token does not make a change possible.
        Object status = browser.inPage("""
                const done = arguments[arguments.length - 1];
                fetch('session').then(r => r.json()).then(me => fetch('../api/v1/user', {method: 'POST',
                  headers: {'Content-Type': 'application/json', 'X-CSRF-Token': me.csrfToken},
                  body: JSON.stringify({name: 'mallory'})})).then(r => done(r.status));
                """);
        assertEquals(403L, status);
        assertTrue(admin.users().stream().noneMatch(u -> u.name().equals("mallory")));
    }

    @Test
    void thePagesWorkAtPhoneWidthInTheDarkSchemeAndSigningOutEndsTheSession() {
        MeshClient admin = start();
        browser.assertAccessible("sign-in");
        browser.screenshot("console-sign-in");
        browser.signIn(key(admin, "alice", List.of()));
        browser.darkScheme(true);
        browser.phoneWidth(true);
        browser.go("machines");
        browser.assertAccessible("machines (phone, dark)");
        browser.screenshot("console-machines-phone-dark");
        browser.go("users");
        browser.waitFor(By.cssSelector("tr[data-user='alice']"));
        browser.assertAccessible("users (phone, dark)");
        browser.phoneWidth(false);
        browser.darkScheme(false);

        browser.signOut();
        browser.go("machines");
        browser.waitFor(By.id("api-key"));
    }
}
