package io.meshcontrol.gui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.api.DnsView;
import io.meshcontrol.server.testing.TestServer;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DnsScreenTest {

    @TempDir
    Path folder;
    private TestServer server;
    private RunningApp app;

    @BeforeEach
    void start() throws Exception {
        server = TestServer.start(folder);
        app = RunningApp.start(folder.resolve("config"), server.localCredentialPath()).connectLocally();
        app.click("DNS");
    }

    @AfterEach
    void stop() throws Exception {
        app.close();
        server.close();
    }

    @Test
    void nameserversSplitDnsAndSearchPathsAreSaved() {
        app.await("the server's DNS", () -> app.text("#magicDns").startsWith("MagicDNS"));
        app.setText("#dnsNameservers", "1.1.1.1\n9.9.9.9 exit");
        app.click("#dnsOverride");
        app.setText("#dnsSplit", "corp.example.com: 10.0.0.53");
        app.type("#dnsSearchPaths", "corp.example.com");
        app.click("#saveDns");
        app.await("saved", () -> app.text("#statusMessage").equals("DNS saved"));
        DnsView dns = server.adminClient().dns();
        assertEquals(List.of(new DnsView.Nameserver("1.1.1.1", false), new DnsView.Nameserver("9.9.9.9", true)),
                dns.nameservers());
        assertTrue(dns.overrideLocalDns());
        assertEquals(Map.of("corp.example.com", List.of(new DnsView.Nameserver("10.0.0.53", false))), dns.splitDns());
        assertEquals(List.of("corp.example.com"), dns.searchPaths());
        app.screenshot("desktop-dns");
    }

    @Test
    void aBadNameserverIsRefusedAndNothingIsSaved() {
        app.await("the server's DNS", () -> app.text("#magicDns").startsWith("MagicDNS"));
        DnsView before = server.adminClient().dns();
        app.setText("#dnsNameservers", "banana");
        app.click("#saveDns");
        app.await("the refusal", () -> app.text("#statusMessage").startsWith("Saving DNS: "));
        assertTrue(app.text("#statusMessage").contains("banana"), app.text("#statusMessage"));
        assertEquals(before, server.adminClient().dns());
    }
}
