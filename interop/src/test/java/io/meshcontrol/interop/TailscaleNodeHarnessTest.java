package io.meshcontrol.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.core.testing.RefusingPort;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Proves the harness against the real, pinned binaries, without any control server: what a fresh daemon
 * reports, that the binaries are the pinned release, that state survives a restart, and that nothing is
 * left running or sent off the machine.
 */
class TailscaleNodeHarnessTest {

    private static final String VERSIONS = "io.meshcontrol.interop.ClientVersions#all";

    @RegisterExtension
    final TailscaleNodes nodes = new TailscaleNodes();

    @ParameterizedTest
    @MethodSource(VERSIONS)
    void freshDaemonNeedsLoginWithoutLeavingTheMachine(ClientVersion version) {
        TailscaleNode node = nodes.start(version, "fresh");

        NodeStatus status = node.status();

        assertEquals(BackendState.NeedsLogin, status.backendState(), status::summary);
        assertEquals(version.number(), status.version());
        assertEquals(List.of(), status.tailscaleIps());
        assertEquals(java.util.Map.of(), status.peers());
        assertEquals("", status.self().dnsName());
        assertEquals(List.of(), node.trappedRequests(), "requests sent towards the internet");
    }

    @ParameterizedTest
    @MethodSource(VERSIONS)
    void socksServerListensOnLoopback(ClientVersion version) throws IOException {
        TailscaleNode node = nodes.start(version, "socks");

        try (Socket socket = new Socket(node.socksAddress().getAddress(), node.socksAddress().getPort())) {
            socket.setSoTimeout(5_000);
            OutputStream out = socket.getOutputStream();
            out.write(new byte[] {5, 1, 0}); // SOCKS5, one method offered: no authentication
            out.flush();
            InputStream in = socket.getInputStream();
            assertEquals(5, in.read(), "SOCKS version");
            assertEquals(0, in.read(), "chosen method: no authentication");
        }
    }

    @ParameterizedTest
    @MethodSource(VERSIONS)
    void cliAndDaemonAreThePinnedRelease(ClientVersion version) {
        TailscaleNode node = nodes.start(version, "version");

        CliResult plain = node.cli("version").requireOk();
        JsonNode meta = JsonMapper.shared().readTree(node.cli("version", "--json", "--daemon").requireOk().stdout());

        assertEquals(version.number(), plain.stdout().lines().findFirst().orElseThrow(), plain::describe);
        assertEquals(version.number(), meta.path("short").stringValue(), meta::toString);
        assertEquals(version.capabilityVersion(), meta.path("cap").intValue(), meta::toString);
        assertEquals(version.number(), meta.path("daemonLong").stringValue(), meta::toString);
    }

    @ParameterizedTest
    @MethodSource(VERSIONS)
    void restartKeepsTheStateDir(ClientVersion version) throws IOException {
        TailscaleNode node = nodes.start(version, "restart");
        URI nobodyListening = URI.create("http://127.0.0.1:" + unusedLoopbackPort());
        // A login attempt makes the daemon generate its machine key and store it in the state file.
        CliResult firstAttempt = node.up(nobodyListening, "tskey-auth-unused", "restart", "--timeout=2s");
        String machineKey = machineKey(node.stateDir());
        long firstPid = node.daemonProcess().pid();

        node.restart();
        CliResult secondAttempt = node.up(nobodyListening, "tskey-auth-unused", "restart", "--timeout=2s");

        assertNotEquals(0, firstAttempt.exitCode(), firstAttempt::describe);
        assertNotEquals(0, secondAttempt.exitCode(), secondAttempt::describe);
        assertNotEquals(firstPid, node.daemonProcess().pid(), "a new tailscaled process");
        assertEquals(machineKey, machineKey(node.stateDir()), "machine key kept (a lost state would make a new one)");
        assertEquals(BackendState.NeedsLogin, node.status().backendState());
        assertEquals(List.of(), node.trappedRequests(), "requests sent towards the internet");
    }

    @ParameterizedTest
    @MethodSource(VERSIONS)
    void stopLeavesNoProcessBehind(ClientVersion version) throws IOException {
        TailscaleNode node = nodes.start(version, "stop");
        ProcessHandle daemon = node.daemonProcess();
        InteractiveLogin pendingLogin = node.upAsync(URI.create("http://127.0.0.1:" + unusedLoopbackPort()), "stop",
                "--timeout=60s");

        node.stop();

        assertFalse(daemon.isAlive(), "tailscaled still running");
        assertFalse(node.isRunning());
        assertTrue(pendingLogin.isDone() || !pendingLogin.await(Duration.ofSeconds(5)).ok(), "tailscale up still running");
        assertEquals(List.of(), daemon.descendants().filter(ProcessHandle::isAlive).toList());
        assertThrows(IllegalStateException.class, node::status);
        node.close();
        node.close();
    }

    @ParameterizedTest
    @MethodSource(VERSIONS)
    void loginWithoutAnyServerReportsTheFailureInsteadOfAnAuthUrl(ClientVersion version) throws IOException {
        TailscaleNode node = nodes.start(version, "nourl");

        InteractiveLogin login = node.upAsync(URI.create("http://127.0.0.1:" + unusedLoopbackPort()), "nourl",
                "--timeout=2s");

        AssertionError noUrl = assertThrows(AssertionError.class, () -> login.awaitAuthUrl(Duration.ofSeconds(30)));
        assertTrue(noUrl.getMessage().contains("exited without an AuthURL"), noUrl::getMessage);
        assertNotEquals(0, login.await(Duration.ofSeconds(5)).exitCode());
    }

    @Test
    void missingBinariesFailWithInstallInstructions(@TempDir Path emptyClientsDir) {
        IllegalStateException missing = assertThrows(IllegalStateException.class,
                () -> ClientBinaries.in(emptyClientsDir, ClientVersions.oldest()));

        assertTrue(missing.getMessage().contains("interop/install-clients.sh"), missing::getMessage);
    }

    @Test
    void pinsCoverNewestAndOldestSupportedRelease() {
        assertEquals(List.of("NEWEST", "OLDEST"), ClientVersions.pinned().stream().map(ClientVersion::pin).toList());
        assertEquals(113, ClientVersions.oldest().capabilityVersion(), "oldest supported client is capver 113 (v1.80)");
        assertTrue(ClientVersions.newest().capabilityVersion() > ClientVersions.oldest().capabilityVersion());
    }

    /** The {@code _machinekey} entry of tailscaled.state (a JSON object of base64 values). */
    private static String machineKey(Path stateDir) throws IOException {
        JsonNode state = JsonMapper.shared().readTree(Files.readString(stateDir.resolve("tailscaled.state")));
        JsonNode key = state.path("_machinekey");
        assertTrue(key.isString() && !key.stringValue().isEmpty(), () -> "no _machinekey in " + state.propertyNames());
        return key.stringValue();
    }

    private static int unusedLoopbackPort() {
        return RefusingPort.number();
    }
}
