package io.meshcontrol.interop;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.api.ApiKeyRequest;
import io.meshcontrol.api.MeshClient;
import io.meshcontrol.api.UserRequest;
import io.meshcontrol.core.model.Node;
import io.meshcontrol.core.testing.AuthKey;
import io.meshcontrol.core.testing.GeoDatabases;
import io.meshcontrol.core.testing.Machine;
import io.meshcontrol.server.testing.TestServer;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;

/** The console's machine page shows where the location database ({@code policy.geoip_database}) places a machine. */
class ConsoleLocationTest {

    @TempDir
    Path folder;
    private TestServer server;
    private ConsoleBrowser browser;

    @AfterEach
    void stop() {
        if (browser != null) {
            browser.close();
        }
        if (server != null) {
            server.close();
        }
    }

    @Test
    void aMachinesPageShowsItsCityCountryAndTheAddressItWasPlacedBy() throws Exception {
        Path database = GeoDatabases.write(folder.resolve("GeoLite2-City.mmdb"), "81.2.69.0/24=GB/London");
        server = TestServer.in(folder).reachableServerUrl().set("policy.geoip_database", database.toString()).start();
        browser = ConsoleBrowser.open(server.url());
        MeshClient admin = server.adminClient();
        admin.createUser(new UserRequest("alice", "Alice", "alice@example.com", "admin"));
        Node laptop = Machine.named("laptop").join(server.network, AuthKey.forUser("alice").create(server.network));
        Node phone = Machine.named("phone").join(server.network, AuthKey.forUser("alice").create(server.network));
        server.network.nodes().updateFromClient(laptop.id(), null, List.of("192.168.1.2:41641", "81.2.69.20:41641"),
                null, null);
        browser.signIn(admin.createApiKey(new ApiKeyRequest("alice", List.of(), "console test", "24h")).secret());

        browser.go("machines/" + laptop.id());
        browser.waitForText("London, GB (81.2.69.20)");
        assertTrue(browser.present(By.cssSelector("dd[data-location='GB']")));
        browser.assertAccessible("machine with a location");
        browser.screenshot("console-machine-location");

        browser.go("machines/" + phone.id());
        browser.waitForText("phone");
        assertFalse(browser.text().contains("Location"), "no endpoint the database places: no location row");
    }

    @Test
    void thePolicyPreviewSupposesACountry() throws Exception {
        Path database = GeoDatabases.write(folder.resolve("GeoLite2-City.mmdb"), "81.2.69.0/24=GB/London");
        server = TestServer.in(folder).reachableServerUrl().set("policy.geoip_database", database.toString()).start();
        browser = ConsoleBrowser.open(server.url());
        MeshClient admin = server.adminClient();
        admin.createUser(new UserRequest("alice", "Alice", "alice@example.com", "admin"));
        admin.setPolicy("""
                {"tagOwners": {"tag:server": ["alice@example.com"]},
                 "postures": {"posture:uk": ["ip:country == 'GB'"]},
                 "acls": [{"action": "accept", "src": ["autogroup:member"], "dst": ["tag:server:22"],
                           "srcPosture": ["posture:uk"]}]}""");
        Machine.named("laptop").join(server.network, AuthKey.forUser("alice").create(server.network));
        Machine.named("server").join(server.network, AuthKey.forTags("tag:server").create(server.network));
        browser.signIn(admin.createApiKey(new ApiKeyRequest("alice", List.of(), "console test", "24h")).secret());

        browser.go("policy");
        browser.selectByText(By.id("preview-machine"), "laptop");
        browser.click(By.xpath("//input[@name='preview-policy' and @value='saved']"));
        browser.click(By.xpath("//button[normalize-space()='Preview']"));
        browser.waitForText("Nothing: no machine lets laptop in.");

        browser.type(By.id("preview-country"), "gb");
        browser.click(By.xpath("//button[normalize-space()='Preview']"));
        browser.waitForText("laptop in GB may reach under the saved policy");
        assertTrue(browser.present(By.cssSelector("tr[data-reach='server']")), "in the UK it reaches the server");
        browser.assertAccessible("policy preview with a country");
        browser.scrollTo(By.id("preview-title"));
        browser.screenshot("console-policy-preview-country");
    }
}
