package io.meshcontrol.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.api.ApiKeyRequest;
import io.meshcontrol.api.MeshClient;
import io.meshcontrol.api.NodeView;
import io.meshcontrol.api.PreAuthKeyRequest;
import io.meshcontrol.api.PreAuthKeyView;
import io.meshcontrol.api.UserRequest;
import io.meshcontrol.core.auth.Caller;
import io.meshcontrol.core.state.Settings;
import io.meshcontrol.core.testing.Machine;
import io.meshcontrol.server.testing.TestServer;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;

/**
 * The machines list as admins use it first (docs/console.md, "Machines"): filtered and sorted by the server, several
 * machines selected and changed with one request, destructive actions asked first; several keys revoked at once.
 * Debian's chromium against a real server, each changed page checked with axe-core at 1280 and 390 px in both
 * schemes.
 */
class ConsoleBulkActionsTest {

    @TempDir
    Path folder;
    private TestServer server;
    private ConsoleBrowser browser;
    private MeshClient admin;

    @BeforeEach
    void start() {
        server = TestServer.in(folder).reachableServerUrl().start();
        browser = ConsoleBrowser.open(server.url());
        admin = server.adminClient();
        admin.createUser(new UserRequest("alice", "Alice", "alice@example.com", "admin"));
        browser.signIn(admin.createApiKey(new ApiKeyRequest("alice", List.of(), "console test", "24h")).secret());
    }

    @AfterEach
    void stop() {
        if (browser != null) {
            browser.close();
        }
        if (server != null) {
            server.close();
        }
    }

    private void join(String key, String name, String os, String version) {
        Machine.named(name).hostinfo("{\"Hostname\":\"" + name + "\",\"OS\":\"" + os + "\",\"OSVersion\":\"1\","
                + "\"IPNVersion\":\"" + version + "-tabcdef\"}").join(server.network, key);
    }

    private static By select(String machine) {
        return By.cssSelector("input[aria-label='Select " + machine + "']");
    }

    /** The machines the list shows, in order; none while the list is being drawn again (read again then). */
    private List<String> shownMachines() {
        try {
            return browser.texts(By.cssSelector("tr[data-machine] td[data-label='Machine'] a"));
        } catch (org.openqa.selenium.StaleElementReferenceException redrawn) {
            return List.of();
        }
    }

    @Test
    void severalMachinesAreFilteredSortedSelectedAndChangedWithOneRequestEach() throws InterruptedException {
        String key = admin.createPreAuthKey(new PreAuthKeyRequest("alice", null, true, false, false, "", null)).secret();
        join(key, "linux-a", "linux", "1.102.5");
        server.network.settings().update(Caller.localAdmin(), new Settings.Change(true, null, null, null));
        join(key, "win-b", "windows", "1.80.3");
        join(key, "win-a", "windows", "1.80.3");
        join(key, "win-c", "windows", "1.102.5");
        browser.go("machines");
        browser.waitFor(By.cssSelector("tr[data-machine='linux-a']"));

        browser.selectByText(By.id("machine-os"), "windows");
        browser.waitGone(By.cssSelector("tr[data-machine='linux-a']"));
        awaitShown(List.of("win-b", "win-a", "win-c")); // the server's id order
        browser.click(By.xpath("//th//button[starts-with(normalize-space(), 'Machine')]"));
        browser.waitFor(By.cssSelector("th[aria-sort='ascending']"));
        awaitShown(List.of("win-a", "win-b", "win-c"));
        browser.click(By.xpath("//th//button[starts-with(normalize-space(), 'Machine')]"));
        browser.waitFor(By.cssSelector("th[aria-sort='descending']"));
        awaitShown(List.of("win-c", "win-b", "win-a"));
        browser.type(By.id("machine-version"), "1.80");
        awaitShown(List.of("win-b", "win-a"));

        browser.click(select("win-a"));
        browser.click(select("win-b"));
        browser.waitFor(By.cssSelector("[data-selected='2']"));
        browser.assertAccessibleEverywhere("console-machines-bulk");
        browser.screenshot("console-machines-bulk");
        browser.click(By.xpath("//section[contains(@class, 'bulk')]//button[normalize-space()='Approve']"));
        browser.waitForText("2 machines approved.");
        assertTrue(admin.nodes().stream().filter(n -> n.name().startsWith("win-a") || n.name().startsWith("win-b"))
                .allMatch(NodeView::authorized));
        assertTrue(admin.nodes().stream().filter(n -> n.name().equals("win-c")).noneMatch(NodeView::authorized),
                "only the selected machines");

        browser.replaceText(By.id("machine-version"), "");
        browser.go("machines/show/approval"); // where the overview's "Waiting for approval" leads
        browser.waitForValue(By.id("machine-filter"), "approval");
        awaitShown(List.of("win-c"));
        browser.go("machines");
        browser.selectByText(By.id("machine-filter"), "Needs approval");
        awaitShown(List.of("win-c"));
        browser.selectByText(By.id("machine-filter"), "All machines");
        browser.selectByText(By.id("machine-os"), "Any");
        awaitShown(List.of("win-c", "win-b", "win-a", "linux-a"));
        browser.click(By.cssSelector("input[aria-label='Select every machine on this page']"));
        browser.waitFor(By.cssSelector("[data-selected='4']"));
        browser.click(select("linux-a"));
        browser.waitFor(By.cssSelector("[data-selected='3']"));
        String question = browser.clickAndConfirm(
                By.xpath("//section[contains(@class, 'bulk')]//button[normalize-space()='Delete']"));
        assertTrue(question.startsWith("Delete 3 machines? They lose access at once"), question);
        awaitShown(List.of("linux-a"));
        assertEquals(List.of("linux-a"), admin.nodes().stream().map(NodeView::name).toList());
        assertEquals(3, server.network.auditLog().recent("node.delete", 10).size(), "one entry per machine");
    }

    @Test
    void severalPreAuthKeysAndApiKeysAreRevokedAtOnceAfterAQuestion() {
        for (String name : List.of("first", "second", "kept")) {
            admin.createPreAuthKey(new PreAuthKeyRequest("alice", null, false, false, false, name, null));
        }
        List<PreAuthKeyView> keys = admin.preAuthKeys();
        browser.go("keys");
        for (String name : List.of("first", "second")) {
            browser.click(By.cssSelector("input[aria-label='Select " + name + "']"));
        }
        browser.assertAccessibleEverywhere("console-keys-bulk");
        String question = browser.clickAndConfirm(By.xpath("//button[normalize-space()='Revoke 2 pre-auth keys']"));
        assertTrue(question.contains("No machine can join with them"), question);
        browser.waitGone(By.xpath("//button[normalize-space()='Revoke 2 pre-auth keys']"));
        assertEquals(List.of("kept"), admin.preAuthKeys().stream().filter(PreAuthKeyView::valid)
                .map(PreAuthKeyView::description).toList());
        assertEquals(keys.size(), admin.preAuthKeys().size(), "revoked keys stay listed as invalid");

        for (String name : List.of("ci one", "ci two")) {
            admin.createApiKey(new ApiKeyRequest(null, List.of("devices:core:read"), name, "24h"));
        }
        browser.reload();
        for (String name : List.of("ci one", "ci two")) {
            browser.click(By.cssSelector("input[aria-label='Select " + name + "']"));
        }
        question = browser.clickAndConfirm(By.xpath("//button[normalize-space()='Expire 2 API keys']"));
        assertTrue(question.contains("They stop working at once"), question);
        browser.waitGone(By.xpath("//button[normalize-space()='Expire 2 API keys']"));
        assertEquals(List.of("ci one", "ci two"), admin.apiKeys().stream().filter(k -> k.expired())
                .map(k -> k.description()).sorted().toList(), "the console's own key keeps working");
    }

    private void awaitShown(List<String> names) throws InterruptedException {
        io.meshcontrol.core.testing.Await.until("the list shows " + names, () -> shownMachines().equals(names));
    }
}
