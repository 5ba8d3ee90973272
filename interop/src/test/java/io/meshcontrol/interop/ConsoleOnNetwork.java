package io.meshcontrol.interop;

import io.meshcontrol.api.MeshClient;
import io.meshcontrol.api.UserRequest;
import io.meshcontrol.server.testing.TestServer;
import java.nio.file.Path;

/**
 * What the console's browser tests with real {@code tailscaled} nodes start from: a network with the embedded relay,
 * its console open in chromium, and alice, an admin. {@code server_url} is where the server really listens, since the
 * console shows it in the join command.
 */
record ConsoleOnNetwork(TestNetwork network, ConsoleBrowser browser, MeshClient admin) implements AutoCloseable {

    static ConsoleOnNetwork start(Path folder, TailscaleNodes nodes) {
        TestNetwork network = TestNetwork.withEmbeddedRelay(folder, nodes, TestServer.Builder::reachableServerUrl);
        ConsoleBrowser browser;
        try {
            browser = ConsoleBrowser.open(network.server().url());
        } catch (RuntimeException e) {
            closeQuietly(network, e);
            throw e;
        }
        MeshClient admin = network.admin();
        admin.createUser(new UserRequest("alice", "Alice", "alice@example.com", "admin"));
        return new ConsoleOnNetwork(network, browser, admin);
    }

    private static void closeQuietly(TestNetwork network, RuntimeException cause) {
        try {
            network.close();
        } catch (Exception e) {
            cause.addSuppressed(e);
        }
    }

    @Override
    public void close() throws Exception {
        try {
            browser.close();
        } finally {
            network.close();
        }
    }
}
