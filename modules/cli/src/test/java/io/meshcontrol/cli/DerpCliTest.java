package io.meshcontrol.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.api.DerpRelayView;
import io.meshcontrol.api.DerpSettingsView;
import io.meshcontrol.core.testing.RefusingPort;
import io.meshcontrol.server.testing.TestServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** {@code svc derp ...} through the real CLI against a server with the embedded relay. */
class DerpCliTest {

    @TempDir
    Path folder;
    @RegisterExtension
    final ServerWithCli cli = ServerWithCli.in(() -> folder).withRelay(true);

    private CliRun svc(String... args) {
        return cli.run(args);
    }

    private DerpSettingsView inForce() {
        return cli.server().adminClient().derp().value();
    }

    @Test
    void showPrintsTheSettingsAsTableAndJson() {
        CliRun table = svc("derp", "show");
        assertEquals(0, table.exitCode(), table.toString());
        assertTrue(table.out().contains("embedded relay  on"), table.out());
        assertTrue(table.out().contains("(none: own relays only)"), table.out());
        CliRun json = svc("derp", "show", "-o", "json");
        assertTrue(json.out().contains("\"verifyClients\" : true"), json.out());
    }

    @Test
    void afterAResetWithoutInternetSetStillWorksAndAddingAnUnreachableUrlSaysHowToRunOffline() throws IOException {
        String unreachableDefault = RefusingPort.url("/derpmap/default");
        Path offline = folder.resolve("offline");
        try (TestServer server = TestServer.in(offline).relay(true).set("derp.urls", unreachableDefault)
                .set("egress.allow_loopback_targets", "true").start()) {
            Path config = CliRun.configFor(server, Files.createDirectories(offline));
            assertEquals(0, CliRun.withConfig(offline, config, "derp", "reset").exitCode());
            CliRun set = CliRun.withConfig(offline, config, "derp", "set", "--verify-clients", "off");
            assertEquals(0, set.exitCode(), set.toString());
            DerpSettingsView now = server.adminClient().derp().value();
            assertFalse(now.verifyClients());
            assertEquals(List.of(unreachableDefault), now.urls());

            CliRun added = CliRun.withConfig(offline, config, "derp", "set", "--url",
                    unreachableDefault.replace("/default", "/other"));
            assertEquals(1, added.exitCode());
            assertTrue(added.err().contains("svc derp set --url \"\"") && added.err().contains("derp.urls: []"),
                    added.err());
        }
    }

    @Test
    void showSaysWhenStunIsUnavailable() throws Exception {
        Path busyFolder = folder.resolve("busy");
        try (java.net.DatagramSocket busy = new java.net.DatagramSocket(
                new java.net.InetSocketAddress("127.0.0.1", 0));
                TestServer server = TestServer.in(busyFolder).relay(true)
                        .set("derp.server.stun_listen_addr", "127.0.0.1:" + busy.getLocalPort()).start()) {
            Path config = CliRun.configFor(server, Files.createDirectories(busyFolder));
            CliRun table = CliRun.withConfig(busyFolder, config, "derp", "show");
            assertEquals(0, table.exitCode(), table.toString());
            assertTrue(table.out().contains("STUN            on (127.0.0.1:" + busy.getLocalPort()
                    + "), unavailable: cannot bind STUN"), table.out());
            assertTrue(table.out().contains("retrying"), table.out());
        }
    }

    @Test
    void setChangesOnlyTheFlagsGiven() {
        assertEquals(0, svc("derp", "set", "--verify-clients", "off").exitCode());
        CliRun set = svc("derp", "set", "--stun-enabled", "off", "--ipv4", "192.0.2.1");
        assertEquals(0, set.exitCode(), set.toString());
        DerpSettingsView now = inForce();
        assertFalse(now.stunEnabled());
        assertEquals("192.0.2.1", now.ipv4());
        assertFalse(now.verifyClients(), "a flag not given keeps its value");
        assertTrue(now.relayEnabled());
        assertEquals(0, svc("derp", "set", "--ipv4", "").exitCode());
        assertEquals("", inForce().ipv4(), "an empty value clears the address");
    }

    @Test
    void relayAddAndRemove() {
        CliRun add = svc("derp", "relay", "add", "--region", "900", "--code", "home", "--host", "relay.example.com",
                "--ipv4", "192.0.2.7");
        assertEquals(0, add.exitCode(), add.toString());
        assertEquals(List.of(new DerpRelayView(900, "home", "relay.example.com", "192.0.2.7")),
                inForce().relays());
        assertTrue(cli.server().server.mapContext().derpMap().regions().containsKey(900));
        CliRun twice = svc("derp", "relay", "add", "--region", "900", "--code", "x", "--host", "x.example.com");
        assertEquals(1, twice.exitCode());
        assertTrue(twice.err().contains("region 900 already has a relay"), twice.err());
        assertEquals(0, svc("derp", "relay", "remove", "--region", "900").exitCode());
        assertEquals(List.of(), inForce().relays());
        assertFalse(cli.server().server.mapContext().derpMap().regions().containsKey(900));
        CliRun unknown = svc("derp", "relay", "remove", "--region", "900");
        assertEquals(1, unknown.exitCode());
        assertTrue(unknown.err().contains("no relay of your own has region 900"), unknown.err());
    }

    @Test
    void invalidHostIsRefusedWithOneLineNamingIt() {
        CliRun bad = svc("derp", "relay", "add", "--region", "900", "--code", "home", "--host", "bad_host!");
        assertEquals(1, bad.exitCode());
        assertEquals(1, bad.err().lines().count(), bad.err());
        assertTrue(bad.err().contains("\"bad_host!\"") && bad.err().contains("HTTP 400"), bad.err());
        assertEquals(List.of(), inForce().relays());
    }

    @Test
    void resetRefreshAndLatency() {
        assertEquals(0, svc("derp", "set", "--verify-clients", "off").exitCode());
        CliRun reset = svc("derp", "reset", "-o", "json");
        assertEquals(0, reset.exitCode(), reset.toString());
        assertTrue(inForce().verifyClients());
        CliRun refresh = svc("derp", "refresh");
        assertEquals(0, refresh.exitCode(), refresh.toString());
        assertTrue(refresh.err().contains("DERP maps refreshed"));
        CliRun latency = svc("derp", "latency");
        assertEquals(0, latency.exitCode(), latency.toString());
        assertTrue(latency.out().startsWith("REGION  CODE  NAME"), latency.out());
        assertTrue(latency.out().lines().anyMatch(line -> line.startsWith("999") && line.matches(".*\\s-\\s+-")),
                "no data shows -: " + latency.out());
    }
}
