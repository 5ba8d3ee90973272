package io.meshcontrol.gui;

import io.meshcontrol.api.PreAuthKeyRequest;
import io.meshcontrol.api.UserRequest;
import io.meshcontrol.core.testing.Machine;
import io.meshcontrol.server.testing.TestServer;
import java.nio.file.Path;

/**
 * The server for {@code bench/desktop-memory}, in a JVM of its own so that the app's figures are the app's: a test
 * server in the folder given, with the number of machines given, running until its standard input closes.
 */
public final class BenchServer {

    private BenchServer() {
    }

    public static void main(String[] args) throws Exception {
        Path folder = Path.of(args[0]);
        int machines = Integer.parseInt(args[1]);
        try (TestServer server = TestServer.start(folder)) {
            server.adminClient().createUser(new UserRequest("odin", null, null, null));
            String key = server.adminClient().createPreAuthKey(new PreAuthKeyRequest("odin", null, true, false, true,
                    "", null)).secret();
            for (int i = 0; i < machines; i++) {
                Machine.named("machine-" + i).advertising(i % 10 == 0 ? new String[] {"10." + i + ".0.0/24"}
                        : new String[0]).join(server.network, key);
            }
            System.out.println("ready " + server.localCredentialPath());
            System.out.flush();
            System.in.read(); // the bench closes it when done
        }
    }
}
