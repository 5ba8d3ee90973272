package io.meshcontrol.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.api.ApiKeyRequest;
import io.meshcontrol.api.DerpRelayView;
import io.meshcontrol.api.DerpSettingsView;
import io.meshcontrol.api.DnsView;
import io.meshcontrol.api.MeshClient;
import io.meshcontrol.api.Tagged;
import io.meshcontrol.api.UserRequest;
import io.meshcontrol.server.testing.OidcIssuerFixture;
import io.meshcontrol.server.testing.TestServer;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;

/**
 * The console's DNS page, its relay settings and relays of your own, and OIDC sign-in coming back to the console, in
 * Debian's chromium against a real server (docs/console.md); each page checked with axe-core and photographed into
 * target/console-screenshots.
 */
class ConsoleDnsAndRelaysTest {

    @TempDir
    Path folder;
    private TestServer server;
    private ConsoleBrowser browser;
    private OidcIssuerFixture issuer;

    @AfterEach
    void stop() {
        if (browser != null) {
            browser.close();
        }
        if (server != null) {
            server.close();
        }
        if (issuer != null) {
            issuer.close();
        }
    }

    private MeshClient start(UnaryOperator<TestServer.Builder> more) {
        server = more.apply(TestServer.in(folder).reachableServerUrl().relay(true)
                .set("dns.nameservers.global", "9.9.9.9")).start();
        browser = ConsoleBrowser.open(server.url());
        MeshClient admin = server.adminClient();
        admin.createUser(new UserRequest("alice", "Alice", "alice@example.com", "admin"));
        return admin;
    }

    private static String key(MeshClient admin, String owner) {
        return admin.createApiKey(new ApiKeyRequest(owner, List.of(), "console test", "24h")).secret();
    }

    private static By button(String text) {
        return By.xpath("//button[normalize-space()='" + text + "']");
    }

    @Test
    void dnsIsEditedSavedShownAfterAReloadAndABadNameserverShowsTheServersError() {
        MeshClient admin = start(b -> b);
        browser.signIn(key(admin, "alice"));
        browser.go("dns");
        assertEquals("9.9.9.9", browser.value(By.id("nameserver-0")), "the configuration file's nameserver");
        browser.waitForText("cannot be changed here");

        browser.click(button("Add nameserver"));
        browser.type(By.id("nameserver-1"), "1.1.1.1");
        browser.click(button("Add split DNS domain"));
        browser.type(By.id("split-domain-0"), "corp.example");
        browser.type(By.id("split-servers-0"), "10.0.0.53, 10.0.0.54");
        browser.type(By.id("search-paths"), "corp.example");
        browser.click(button("Save DNS"));
        browser.waitForText("Saved.");
        DnsView saved = admin.dns();
        assertEquals(List.of("9.9.9.9", "1.1.1.1"), saved.nameservers().stream().map(DnsView.Nameserver::address).toList());
        assertEquals(List.of("10.0.0.53", "10.0.0.54"),
                saved.splitDns().get("corp.example").stream().map(DnsView.Nameserver::address).toList());
        assertEquals(List.of("corp.example"), saved.searchPaths());
        browser.assertAccessible("dns");
        browser.scrollTo(By.id("resolvers-title"));
        browser.screenshot("console-dns");

        browser.reload();
        assertEquals("1.1.1.1", browser.value(By.id("nameserver-1")));
        assertEquals("corp.example", browser.value(By.id("split-domain-0")));
        assertEquals("10.0.0.53, 10.0.0.54", browser.value(By.id("split-servers-0")));

        browser.click(button("Add nameserver"));
        browser.type(By.id("nameserver-2"), "banana");
        browser.click(button("Save DNS"));
        browser.waitForText("nameservers[2]: invalid nameserver \"banana\": use an IP address or an https:// "
                + "DNS-over-HTTPS URL");
        assertEquals("true", browser.waitFor(By.id("nameserver-2")).getDomAttribute("aria-invalid"),
                "the field the server names is marked");
        browser.assertAccessible("dns (refused)");
        browser.screenshot("console-dns-refused");
        assertEquals(saved, admin.dns(), "a refused save changes nothing");
    }

    @Test
    void relaySettingsChangeAndARelayOfYourOwnIsAddedAndRemoved() {
        MeshClient admin = start(b -> b);
        browser.signIn(key(admin, "alice"));
        browser.go("settings");
        browser.type(By.id("relay-region"), "900");
        browser.type(By.id("relay-code"), "fra");
        browser.type(By.id("relay-host"), "derp-fra.example.com");
        browser.click(button("Add relay"));
        browser.waitFor(By.cssSelector("tr[data-relay='fra']"));
        browser.waitForText("Relay fra added.");
        assertEquals(List.of(new DerpRelayView(900, "fra", "derp-fra.example.com", null)),
                admin.derp().value().relays());

        browser.type(By.id("relay-region"), "901");
        browser.type(By.id("relay-code"), "bad");
        browser.type(By.id("relay-host"), "not a host");
        browser.click(button("Add relay"));
        browser.waitForText("relay host \"not a host\" of region 901");
        assertEquals(1, admin.derp().value().relays().size(), "the refused relay is not added");

        assertTrue(admin.derp().value().verifyClients());
        browser.click(By.id("relay-verify"));
        browser.click(button("Save relay settings"));
        browser.waitForText("Relay settings saved.");
        assertFalse(admin.derp().value().verifyClients(), "changed in the console");
        browser.waitForText("Relay latency");
        browser.assertAccessible("settings (relays)");
        browser.scrollTo(By.id("custom-relays-title"));
        browser.screenshot("console-relays");

        assertTrue(browser.clickAndConfirm(button("Remove relay fra")).contains("Remove relay fra?"), "removing asks first");
        browser.waitGone(By.cssSelector("tr[data-relay='fra']"));
        assertEquals(List.of(), admin.derp().value().relays());
    }

    @Test
    void aConcurrentRelayChangeIsShownAndNotOverwritten() {
        MeshClient admin = start(b -> b);
        browser.signIn(key(admin, "alice"));
        browser.go("settings");
        browser.waitFor(By.id("relay-region"));
        Tagged<DerpSettingsView> current = admin.derp();
        admin.setDerp(current.value().withRelays(List.of(new DerpRelayView(910, "ams", "derp-ams.example.com", null))),
                current.etag());
        browser.type(By.id("relay-region"), "900");
        browser.type(By.id("relay-code"), "fra");
        browser.type(By.id("relay-host"), "derp-fra.example.com");
        browser.click(button("Add relay"));
        browser.waitForText("Someone changed the relay settings after this page read them");
        assertEquals(List.of(910), admin.derp().value().relays().stream().map(DerpRelayView::regionId).toList());
    }

    @Test
    void anAuditorSeesDnsAndRelaysButCannotChangeThem() {
        MeshClient admin = start(b -> b);
        admin.createUser(new UserRequest("audrey", null, null, "auditor"));
        admin.setDns(new DnsView(null, null, null, null,
                Map.of("corp.example", List.of(new DnsView.Nameserver("10.0.0.53", false))), List.of("corp.example")));
        Tagged<DerpSettingsView> derp = admin.derp();
        admin.setDerp(derp.value().withRelays(List.of(new DerpRelayView(900, "fra", "derp-fra.example.com", null))),
                derp.etag());
        browser.signIn(key(admin, "audrey"));

        browser.go("dns");
        browser.waitFor(By.cssSelector("[data-dns-read-only]"));
        browser.waitFor(By.cssSelector("tr[data-split='corp.example']"));
        browser.waitForText("9.9.9.9");
        assertFalse(browser.present(By.id("nameserver-0")), "no fields to edit");
        assertFalse(browser.present(button("Save DNS")));
        browser.assertAccessible("dns (auditor)");
        browser.screenshot("console-dns-auditor");

        browser.go("settings");
        browser.waitFor(By.cssSelector("tr[data-relay='fra']"));
        browser.waitFor(By.cssSelector("[data-relay-settings]"));
        assertFalse(browser.present(By.id("relay-region")), "no form to add relays");
        assertFalse(browser.present(button("Remove relay fra")));
        assertFalse(browser.present(button("Save relay settings")));
        browser.assertAccessible("settings (auditor)");

        Object status = browser.inPage("""
                const done = arguments[arguments.length - 1];
                fetch('session').then(r => r.json()).then(me => fetch('../api/v1/dns', {method: 'PUT',
                  headers: {'Content-Type': 'application/json', 'X-CSRF-Token': me.csrfToken},
                  body: JSON.stringify({searchPaths: []})})).then(r => done(r.status));
                """);
        assertEquals(403L, status, "what the page hides, the server refuses");
        assertEquals(List.of("corp.example"), admin.dns().searchPaths());
    }

    @Test
    void signingInThroughOidcComesBackToTheConsolePageAsked() {
        issuer = OidcIssuerFixture.startWithLoginForm();
        MeshClient admin = start(b -> b.set("egress.allow_loopback_targets", "true")
                .set("oidc.issuer", issuer.issuer("people")).set("oidc.client_id", "mesh")
                .set("oidc.client_secret", "s3cret"));
        admin.createUser(new UserRequest("freya", "Freya", "freya@example.com", "network-admin"));
        browser.go("dns");
        // The console may be open already, so only the hash changed: wait until the link carries the page asked.
        browser.waitFor(By.cssSelector("a[href*='%23%2Fdns']"));
        browser.click(By.linkText("Sign in with your organisation's account"));
        browser.type(By.name("username"), "sub-freya");
        browser.type(By.name("claims"), "{\"email\": \"freya@example.com\", \"email_verified\": true}");
        browser.submit(By.name("username"));
        browser.waitFor(By.cssSelector("nav[aria-label='Console']"));
        browser.waitForText("freya (network-admin)");
        assertTrue(browser.url().startsWith(server.url().resolve("/admin/").toString()), browser.url());
        assertTrue(browser.url().endsWith("#/dns"), "back on the page the sign-in started from: " + browser.url());
        browser.waitFor(By.id("nameserver-0"));
    }
}
