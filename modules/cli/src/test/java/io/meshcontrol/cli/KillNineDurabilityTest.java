package io.meshcontrol.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.api.LocalAccess;
import io.meshcontrol.api.MeshClient;
import io.meshcontrol.api.UserRequest;
import io.meshcontrol.api.UserView;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
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
        int port = freePort();
        Files.writeString(config, """
                listen_addr: 127.0.0.1:%d
                metrics_listen_addr: null
                derp:
                  urls: []
                  server:
                    stun_listen_addr: 127.0.0.1:0
                database:
                  sqlite:
                    path: %s
                cli:
                  local_credential_path: %s
                """.formatted(port, folder.resolve("data/db.sqlite"), folder.resolve("data/cli.json")));

        Process first = serve(config);
        List<String> acknowledged = new ArrayList<>();
        String tailnetId;
        try {
            MeshClient client = await(folder.resolve("data/cli.json"), first);
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
        Process second = serve(config);
        try {
            MeshClient client = await(folder.resolve("data/cli.json"), second);
            List<String> stored = client.users().stream().map(UserView::name).toList();
            assertEquals(acknowledged, stored);
            assertEquals(tailnetId, client.server().tailnetId(), "the network ID never changes");
        } finally {
            second.destroy();
            second.waitFor(30, TimeUnit.SECONDS);
        }
    }

    private Process serve(Path config) throws IOException {
        List<String> command = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"),
                Svc.class.getName(), "serve", "-c", config.toString());
        return new ProcessBuilder(command).directory(folder.toFile())
                .redirectErrorStream(true).redirectOutput(folder.resolve("serve-" + System.nanoTime() + ".log").toFile())
                .start();
    }

    private static MeshClient await(Path credential, Process process) throws Exception {
        Instant deadline = Instant.now().plus(Duration.ofSeconds(60));
        while (Instant.now().isBefore(deadline)) {
            assertTrue(process.isAlive(), "svc serve exited early");
            if (Files.exists(credential)) {
                LocalAccess access = LocalAccess.read(credential);
                return new MeshClient(URI.create(access.url()), access.token(), false, Svc.version(), w -> { });
            }
            Thread.sleep(100);
        }
        throw new AssertionError("svc serve did not start within 60 s");
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
