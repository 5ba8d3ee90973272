package io.meshcontrol.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.api.ApiKeyRequest;
import io.meshcontrol.api.NodeView;
import io.meshcontrol.api.SettingsView;
import io.meshcontrol.api.UserRequest;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.openqa.selenium.By;

/**
 * Interactive login ending in the console (docs/joining.md): a real {@code tailscale up} without a key prints its
 * login link; chromium opens it, is signed in to the console (or signs in there, coming back to the same page), sees
 * the waiting machine, picks its user or its tags and adds it with one click (approved too, device approval being
 * on); the client then reaches Running as that owner.
 */
class ConsoleRegisterTest {

    private static final Duration SOON = Duration.ofSeconds(60);

    @RegisterExtension
    final TailscaleNodes nodes = new TailscaleNodes();

    @TempDir
    Path folder;

    private ConsoleOnNetwork console;

    static Stream<ClientVersion> versions() {
        return ClientVersions.all();
    }

    @AfterEach
    void stop() throws Exception {
        if (console != null) {
            console.close();
        }
    }

    private String aliceKey() {
        return console.admin().createApiKey(new ApiKeyRequest("alice", List.of(), "console test", "24h")).secret();
    }

    @ParameterizedTest(name = "tailscale {0}")
    @MethodSource("versions")
    void theLoginLinkSignsInAndAddsTheMachineForTheChosenUser(ClientVersion version) {
        console = ConsoleOnNetwork.start(folder, nodes);
        ConsoleBrowser browser = console.browser();
        console.admin().createUser(new UserRequest("bob", "Bob", "bob@example.com", "member"));
        console.admin().updateSettings(new SettingsView(true, null, null));
        TailscaleNode laptop = console.network().node(version, "laptop");
        try (InteractiveLogin up = laptop.upAsync(console.network().loginServer(), "laptop")) {
            URI link = up.awaitAuthUrl(SOON);
            String authId = link.getPath().substring(link.getPath().lastIndexOf('/') + 1);
            browser.visit(link); // not signed in: the console's sign-in, at the register page's address
            assertTrue(browser.url().endsWith("/admin/#/register/" + authId), browser.url());
            browser.signIn(aliceKey());
            assertTrue(browser.url().endsWith("/admin/#/register/" + authId), "back on the same page: "
                    + browser.url());
            browser.waitFor(By.cssSelector("[data-register-facts]"));
            assertEquals("laptop", browser.waitFor(By.cssSelector("[data-fact='hostname']")).getText());
            assertTrue(browser.waitFor(By.cssSelector("[data-fact='os']")).getText().startsWith("linux"));
            assertTrue(browser.waitFor(By.cssSelector("[data-fact='client']")).getText()
                    .startsWith(version.number()), browser.text());
            assertTrue(browser.waitFor(By.cssSelector("[data-fact='key']")).getText().startsWith("nodekey:"));
            browser.selectByText(By.id("register-user"), "bob");
            browser.waitForText("It joins as bob, approved at once");
            browser.assertAccessibleEverywhere("console-register-" + version.number());
            browser.screenshot("console-register");
            browser.click(By.cssSelector("[data-register-approve]"));
            browser.waitFor(By.cssSelector("[data-register-done]"));
            up.await(SOON).requireOk();
        }
        assertTrue(laptop.awaitStatus("running", NodeStatus::isRunning, SOON).isRunning());
        NodeView view = console.network().view("laptop");
        assertEquals("bob", view.user());
        assertTrue(view.authorized(), "approved in the same click");
        assertEquals("interactive", view.registerMethod());
    }

    /** A member may not add machines: the page says so (no form, no error), and the login waits on. */
    @Test
    void aMemberIsToldTheyMayNotAddMachines() {
        console = ConsoleOnNetwork.start(folder, nodes);
        ConsoleBrowser browser = console.browser();
        console.admin().createUser(new UserRequest("bob", "Bob", "bob@example.com", "member"));
        browser.signIn(console.admin().createApiKey(new ApiKeyRequest("bob", List.of(), "member", "24h")).secret());
        String authId = console.network().server().network.pendingLogins().start(
                io.meshcontrol.core.testing.Machine.named("laptop").request(), false);
        browser.visit(console.network().server().url().resolve("/register/" + authId));
        browser.waitFor(By.cssSelector("[data-register-forbidden]"));
        browser.waitForText("You may not add machines to the network.");
        assertFalse(browser.present(By.cssSelector("[data-register-approve]")));
        browser.assertAccessible("console-register-member");
        assertTrue(console.network().server().network.pendingLogins().isPending(authId));
    }

    @Test
    void aRefusedLoginEndsTailscaleUpWithTheRefusal() {
        console = ConsoleOnNetwork.start(folder, nodes);
        ConsoleBrowser browser = console.browser();
        browser.signIn(aliceKey());
        TailscaleNode stray = console.network().node(ClientVersions.newest(), "stray");
        try (InteractiveLogin up = stray.upAsync(console.network().loginServer(), "stray")) {
            browser.visit(up.awaitAuthUrl(SOON));
            browser.click(By.cssSelector("[data-register-refuse]"));
            browser.click(By.cssSelector("[data-register-refuse-confirm]"));
            browser.waitFor(By.cssSelector("[data-register-refused]"));
            CliResult result = up.await(SOON);
            assertFalse(result.timedOut(), result.describe());
            assertNotEquals(0, result.exitCode(), result.describe());
            assertTrue(result.describe().contains("refused"), result.describe());
        }
        assertEquals(List.of(), console.admin().nodes(), "no machine joined");
    }

    @Test
    void aSignedInAdminAddsTheMachineForTags() {
        console = ConsoleOnNetwork.start(folder, nodes);
        ConsoleBrowser browser = console.browser();
        console.admin().setPolicy("""
                {"tagOwners": {"tag:kiosk": ["autogroup:admin"], "tag:lobby": ["autogroup:admin"]},
                 "acls": [{"action": "accept", "src": ["*"], "dst": ["*:*"]}]}""");
        browser.signIn(aliceKey());
        TailscaleNode kiosk = console.network().node(ClientVersions.newest(), "kiosk");
        String authId;
        try (InteractiveLogin up = kiosk.upAsync(console.network().loginServer(), "kiosk")) {
            URI link = up.awaitAuthUrl(SOON);
            authId = link.getPath().substring(link.getPath().lastIndexOf('/') + 1);
            browser.visit(link); // signed in: straight to the register page
            browser.waitFor(By.cssSelector("[data-register-facts]"));
            browser.click(By.cssSelector("input[name='owner'][value='tags']"));
            browser.click(By.cssSelector("input[type='checkbox'][value='tag:kiosk']"));
            browser.waitForText("It joins as the tags tag:kiosk.");
            browser.assertAccessible("console-register-tags");
            browser.screenshot("console-register-tags");
            browser.click(By.cssSelector("[data-register-approve]"));
            browser.waitFor(By.cssSelector("[data-register-done]"));
            up.await(SOON).requireOk();
        }
        assertTrue(kiosk.awaitStatus("running", NodeStatus::isRunning, SOON).isRunning());
        NodeView view = console.network().view("kiosk");
        assertEquals(List.of("tag:kiosk"), view.tags());
        assertEquals(null, view.user());

        // the spent link: the server's own page says so, in the console's style
        browser.visit(console.network().server().url().resolve("/register/" + authId));
        browser.waitForText("Run tailscale up again on the machine for a new link.");
        browser.assertAccessible("console-register-expired");
        browser.screenshot("console-register-expired");
        // the console's page for an id that waits no more
        browser.go("register/" + authId);
        browser.waitFor(By.cssSelector("[data-register-expired]"));
        browser.waitForText("This login link expired.");
    }
}
