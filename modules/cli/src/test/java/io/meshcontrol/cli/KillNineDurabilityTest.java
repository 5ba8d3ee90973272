package io.meshcontrol.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.meshcontrol.api.MeshClient;
import io.meshcontrol.api.UserRequest;
import io.meshcontrol.api.UserView;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every write the API acknowledged survives SIGKILL of the server process, and the network ID stays the
 * same across restarts. The server runs as a separate process started with {@code svc serve}.
 */
class KillNineDurabilityTest {

    @TempDir
    Path folder;

    @Test
    void acknowledgedWritesSurviveKillNine() throws Exception {
        Path config = folder.resolve("config.yaml");
        int port = ServeProcess.freePort();
        Files.writeString(config, """
                listen_addr: 127.0.0.1:%d
                metrics_listen_addr: null
                derp:
                  urls: []
                  server:
                    stun_listen_addr: 127.0.0.1:0
                    tls_listen_addr: 127.0.0.1:0
                database:
                  sqlite:
                    path: %s
                cli:
                  local_credential_path: %s
                """.formatted(port, folder.resolve("data/db.sqlite"), folder.resolve("data/cli.json")));

        Process first = ServeProcess.start(folder, config, folder.resolve("serve-" + System.nanoTime() + ".log"));
        List<String> acknowledged = new ArrayList<>();
        String tailnetId;
        try {
            MeshClient client = ServeProcess.awaitClient(folder.resolve("data/cli.json"), first);
            tailnetId = client.server().tailnetId();
            for (int i = 0; i < 40; i++) {
                acknowledged.add(client.createUser(new UserRequest("user" + i, null, null, null)).name());
            }
        } finally {
            first.destroyForcibly(); // SIGKILL: no shutdown hook, no checkpoint
            first.waitFor(30, TimeUnit.SECONDS);
        }
        assertEquals(137, first.exitValue(), "killed by SIGKILL");

        Files.deleteIfExists(folder.resolve("data/cli.json")); // a killed server cannot remove its credential
        Process second = ServeProcess.start(folder, config, folder.resolve("serve-" + System.nanoTime() + ".log"));
        try {
            MeshClient client = ServeProcess.awaitClient(folder.resolve("data/cli.json"), second);
            List<String> stored = client.users().stream().map(UserView::name).toList();
            assertEquals(acknowledged, stored);
            assertEquals(tailnetId, client.server().tailnetId(), "the network ID never changes");
        } finally {
            second.destroy();
            second.waitFor(30, TimeUnit.SECONDS);
        }
    }
}
