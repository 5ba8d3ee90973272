package io.meshcontrol.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.api.ApiKeyRequest;
import io.meshcontrol.api.MeshClient;
import io.meshcontrol.api.PreAuthKeyRequest;
import io.meshcontrol.api.SettingsView;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;

/**
 * The console's overview (docs/console.md) with real {@code tailscaled} nodes of both pinned versions, in Debian's
 * chromium: the counts it shows are the network's, the older client counts as out of date, the embedded relay's region
 * is up with the latency the machines measured, and a change shows without a reload; checked with axe-core at both
 * widths in light and dark, and photographed.
 */
class ConsoleOverviewTest {

    private static final Duration SOON = Duration.ofSeconds(30);

    @RegisterExtension
    final TailscaleNodes nodes = new TailscaleNodes();

    @TempDir
    Path folder;

    private ConsoleOnNetwork console;

    @AfterEach
    void stop() throws Exception {
        if (console != null) {
            console.close();
        }
    }

    private static By count(String fact, String value) {
        return By.xpath("//div[@data-fact='" + fact + "']/dd[normalize-space()='" + value + "']");
    }

    @Test
    void theOverviewCountsTheNetworkAndFollowsItsChanges() throws Exception {
        console = ConsoleOnNetwork.start(folder, nodes);
        TestNetwork network = console.network();
        ConsoleBrowser browser = console.browser();
        MeshClient admin = console.admin();
        String joinKey = admin.createPreAuthKey(new PreAuthKeyRequest("alice", null, true, false, true, "fleet",
                "720h")).secret();
        network.joined(ClientVersions.oldest(), "old", joinKey);
        network.joined(ClientVersions.newest(), "new", joinKey);
        // as the release lookup writes it: "1.102.5" (the pin's version is "v1.102.5")
        String latest = ClientVersions.newest().version().replaceFirst("^v", "");
        network.server().network.mapContext().latestClientVersion(latest);
        admin.createPreAuthKey(new PreAuthKeyRequest("alice", null, false, false, false, "soon", "48h"));

        browser.signIn(admin.createApiKey(new ApiKeyRequest("alice", List.of(), "console test", "720h")).secret());
        browser.go("overview");
        browser.waitFor(count("online", "2"));
        browser.waitFor(count("waiting", "0"));
        browser.waitFor(count("outdated", "1"));
        browser.waitFor(count("preauth-soon", "1"));
        browser.waitForText("Clients older than " + latest);
        browser.waitFor(By.cssSelector("tr[data-relay='999'][data-status='up']"));
        String bar = browser.waitFor(By.cssSelector(".latency-chart g[data-region='999'] rect")).getDomAttribute("width");
        assertTrue(Double.parseDouble(bar) > 0, "a bar for the measured region: " + bar);
        browser.assertAccessibleEverywhere("overview");
        browser.screenshot("console-overview");

        // A machine waiting for approval shows up without a reload (the event stream names the change).
        admin.updateSettings(new SettingsView(true, null, null));
        String approvalKey = admin.createPreAuthKey(new PreAuthKeyRequest("alice", null, false, false, false, "held",
                "720h")).secret();
        TailscaleNode held = network.node(ClientVersions.newest(), "held");
        try (InteractiveLogin up = held.upAsync(network.loginServer(), "held", "--auth-key=" + approvalKey)) {
            held.awaitStatus("waiting for approval", s -> s.backendState() == BackendState.NeedsMachineAuth, SOON);
            browser.waitFor(count("waiting", "1"));
            browser.waitFor(count("preauth-soon", "1"));
            assertEquals(1, admin.nodes().stream().filter(n -> !n.authorized()).count());
            admin.approveNode(admin.nodes().stream().filter(n -> !n.authorized()).findFirst().orElseThrow().id());
            held.awaitStatus("running after approval", NodeStatus::isRunning, SOON);
            up.await(SOON).requireOk();
            browser.waitFor(count("waiting", "0"));
            browser.waitFor(count("online", "3"));
        }
    }
}
