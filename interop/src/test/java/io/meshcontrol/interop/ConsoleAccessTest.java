package io.meshcontrol.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.api.ApiKeyRequest;
import io.meshcontrol.api.MeshClient;
import io.meshcontrol.api.PreAuthKeyRequest;
import io.meshcontrol.core.testing.Machine;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;

/**
 * What the policy gives machines, in the console (docs/console.md) in Debian's chromium: a machine's peers and packet
 * filter with real {@code tailscaled} nodes, the policy page's preview of what a machine may reach under text not
 * saved, and the editor's HuJSON colours; each page checked with axe-core and photographed.
 */
class ConsoleAccessTest {

    /** Alice's machines may reach the web server on SSH, nothing else. */
    private static final String POLICY = """
            {
              "tagOwners": {"tag:web": ["alice@example.com"]},
              "acls": [{"action": "accept", "src": ["alice@example.com"], "dst": ["tag:web:22"]}],
            }
            """;

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
        MeshClient admin = console.admin();
        admin.setPolicy(POLICY);
        browser.signIn(admin.createApiKey(new ApiKeyRequest("alice", List.of(), "console test", "24h")).secret());
        return admin;
    }

    private static String joinKey(MeshClient admin, List<String> tags) {
        return admin.createPreAuthKey(new PreAuthKeyRequest(tags.isEmpty() ? "alice" : null, tags, false, false, true,
                "t", null)).secret();
    }

    @Test
    void aMachinePageShowsItsPeersAndWhoItsPacketFilterLetsIn() {
        MeshClient admin = start();
        network.joined(ClientVersions.newest(), "laptop", joinKey(admin, List.of()));
        network.joined(ClientVersions.newest(), "web", joinKey(admin, List.of("tag:web")));

        browser.go("machines/" + network.view("web").id());
        browser.waitFor(By.cssSelector("tr[data-peer='laptop']"));
        String peer = browser.waitFor(By.cssSelector("tr[data-peer='laptop']")).getText();
        assertTrue(peer.contains(network.view("laptop").ipv4()) && peer.contains("online"), peer);
        String rule = browser.waitFor(By.cssSelector("tr[data-filter-rule='0']")).getText();
        assertTrue(rule.contains("laptop " + network.view("laptop").ipv4()), "the source is named: " + rule);
        assertTrue(rule.contains("web " + network.view("web").ipv4() + " on port 22"),
                "port 22 of the web server: " + rule);
        assertTrue(rule.contains("tcp, udp, icmp"), rule);
        assertFalse(browser.present(By.cssSelector("tr[data-filter-rule='1']")), "one rule only");
        browser.inPage("""
                document.getElementById('peers-title').scrollIntoView();
                arguments[arguments.length - 1](null);
                """);
        browser.assertAccessible("machine (peers and packet filter)");
        browser.screenshot("console-machine-peers-filter");

        browser.go("machines/" + network.view("laptop").id());
        browser.waitFor(By.cssSelector("tr[data-peer='web']"));
        browser.waitFor(By.cssSelector("[data-filter-empty]"));
    }

    @Test
    void thePolicyPreviewShowsWhatAMachineMayReachUnderTheTextNotSaved() {
        MeshClient admin = start();
        Machine.named("laptop").join(network.server().network, joinKey(admin, List.of()));
        Machine.named("web").join(network.server().network, joinKey(admin, List.of("tag:web")));
        String unsaved = POLICY.replace("\"tag:web:22\"", "\"tag:web:22,443\"");

        browser.go("policy");
        browser.replaceText(By.id("policy-text"), unsaved);
        browser.waitFor(By.id("preview-machine"));
        browser.selectByText(By.id("preview-machine"), "laptop");
        browser.click(By.xpath("//button[normalize-space()='Preview']"));
        String reach = browser.waitFor(By.cssSelector("tr[data-reach='web']")).getText();
        String web = network.admin().nodes().stream().filter(n -> n.name().equals("web")).findFirst().orElseThrow()
                .ipv4();
        assertTrue(reach.contains(web + " on port 22") && reach.contains(web + " on port 443"),
                "the unsaved text opens 443 too: " + reach);
        browser.waitForText("line 3");
        browser.inPage("""
                document.getElementById('preview-title').scrollIntoView();
                arguments[arguments.length - 1](null);
                """);
        browser.assertAccessible("access controls (preview)");
        browser.screenshot("console-policy-preview");

        browser.click(By.cssSelector("input[name='preview-policy'][value='saved']"));
        browser.click(By.xpath("//button[normalize-space()='Preview']"));
        browser.waitForText("laptop may reach under the saved policy");
        reach = browser.waitFor(By.cssSelector("tr[data-reach='web']")).getText();
        assertTrue(reach.contains(web + " on port 22") && !reach.contains("443"),
                "the saved policy opens 22 only: " + reach);
        assertEquals(POLICY, admin.policy().policy(), "a preview saves nothing");

        browser.selectByText(By.id("preview-machine"), "web");
        browser.click(By.xpath("//button[normalize-space()='Preview']"));
        browser.waitFor(By.cssSelector("[data-reach-empty]"));
    }

    @Test
    void anUnknownTagIsMarkedAtItsLineAndTheLinkGoesThere() {
        start();
        browser.go("policy");
        String text = POLICY.replace("\"dst\": [\"tag:web:22\"]}],", "\"dst\": [\"tag:web:22\"]},\n"
                + "    {\"action\": \"accept\", \"src\": [\"*\"], \"dst\": [\"tag:gone:443\"]}],");
        browser.replaceText(By.id("policy-text"), text);
        browser.click(By.xpath("//button[normalize-space()='Run tests']"));
        browser.waitForText("dst=\"tag:gone\": tag not found: \"tag:gone\"");
        assertEquals("4", browser.waitFor(By.cssSelector(".gutter .err")).getText().strip(),
                "the line of the unknown tag is marked, though the message names no line");
        browser.click(By.cssSelector("button[data-error-line='4']"));
        Object selected = browser.inPage("""
                const field = document.getElementById('policy-text');
                arguments[arguments.length - 1](field.value.substring(field.selectionStart, field.selectionStart + 14));
                """);
        assertEquals("\"tag:gone:443\"", selected, "the link puts the caret at the value");
        browser.assertAccessible("access controls (unknown tag)");
        browser.screenshot("console-policy-error-position");

        browser.replaceText(By.id("policy-text"), "{\n  \"acls\": [\n    {\"action\": accept}]}");
        browser.click(By.xpath("//button[normalize-space()='Run tests']"));
        browser.waitForText("unexpected word \"accept\"");
        assertFalse(browser.waitFor(By.cssSelector("[role='alert']")).getText().contains("Unrecognized token"),
                "the parser's own words stay out");
        assertEquals("3", browser.waitFor(By.cssSelector(".gutter .err")).getText().strip());
    }

    @Test
    void theEditorColoursHuJson() {
        start();
        browser.go("policy");
        String sample = """
                {
                  // "not a key": a comment
                  "acls": [{"src": ["*"], "dst": ["http://x:80"]}], /* a block */
                  "n": -1.5, "on": true, "off": null,
                }""";
        browser.replaceText(By.id("policy-text"), sample);
        Object spans = browser.inPage("""
                const done = arguments[arguments.length - 1];
                requestAnimationFrame(() => done([...document.querySelectorAll('.highlight span')]
                  .map(s => s.className + ' ' + s.textContent)));
                """);
        assertEquals(List.of("hj-punct {", "hj-comment // \"not a key\": a comment",
                "hj-key \"acls\"", "hj-punct :", "hj-punct [", "hj-punct {", "hj-key \"src\"", "hj-punct :",
                "hj-punct [", "hj-string \"*\"", "hj-punct ]", "hj-punct ,", "hj-key \"dst\"", "hj-punct :",
                "hj-punct [", "hj-string \"http://x:80\"", "hj-punct ]", "hj-punct }", "hj-punct ]", "hj-punct ,",
                "hj-comment /* a block */", "hj-key \"n\"", "hj-punct :", "hj-number -1.5", "hj-punct ,",
                "hj-key \"on\"", "hj-punct :", "hj-literal true", "hj-punct ,", "hj-key \"off\"", "hj-punct :",
                "hj-literal null", "hj-punct ,", "hj-punct }"), spans);
        Object copy = browser.inPage("""
                const done = arguments[arguments.length - 1];
                done(document.querySelector('.highlight').textContent);
                """);
        assertEquals(sample + "\n ", copy, "the coloured copy is the text, letter for letter");
        assertEquals("Policy (HuJSON)", browser.waitFor(By.id("policy-text")).getAttribute("aria-label"),
                "the text area stays the labelled control");
        Object layout = browser.inPage("""
                const done = arguments[arguments.length - 1];
                const [copy, field] = [document.querySelector('.highlight'), document.getElementById('policy-text')];
                const look = (e) => { const s = getComputedStyle(e), r = e.getBoundingClientRect();
                  return [r.left, r.top, s.fontFamily, s.fontSize, s.lineHeight, s.paddingLeft, s.paddingTop,
                    s.whiteSpace, s.tabSize].join(' '); };
                done([look(copy), look(field)]);
                """);
        assertEquals(((List<?>) layout).get(0), ((List<?>) layout).get(1), "the coloured copy lies under the text");
        browser.assertAccessible("access controls (colours, light)");
        browser.screenshot("console-policy-highlight");
        browser.darkScheme(true);
        browser.assertAccessible("access controls (colours, dark)");
        browser.screenshot("console-policy-highlight-dark");
        browser.darkScheme(false);
    }
}
