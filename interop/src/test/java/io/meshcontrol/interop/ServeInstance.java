package io.meshcontrol.interop;

import io.meshcontrol.api.LocalAccess;
import io.meshcontrol.api.MeshClient;
import io.meshcontrol.cli.Svc;
import io.meshcontrol.core.BuildInfo;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One {@code svc serve} as a process of its own, so that a test can kill it (SIGKILL, nothing runs after) and start
 * it again on the same port, data folder and configuration. The configuration is given as keys ({@code
 * database.postgres.host}) and handed over as their {@code SVC_} variables, over a file naming only the instance.
 */
final class ServeInstance implements AutoCloseable {

    private static final Duration START_TIMEOUT = Duration.ofSeconds(90);
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    private final String name;
    private final Path folder;
    private final int port;
    private final Map<String, String> settings;
    private Process process;
    private int starts;

    /**
     * @param settings configuration keys and values as {@code SVC_} variables take them (lists space-separated)
     */
    ServeInstance(String name, Path folder, int port, Map<String, String> settings) {
        this.name = name;
        this.folder = folder;
        this.port = port;
        this.settings = new LinkedHashMap<>(settings);
        this.settings.put("listen_addr", "127.0.0.1:" + port);
        this.settings.put("metrics_listen_addr", "127.0.0.1:0");
        this.settings.put("cli.local_credential_path", folder.resolve("cli-credential.json").toString());
    }

    String name() {
        return name;
    }

    /** This instance's own address, not the load balancer's. */
    URI directUrl() {
        return URI.create("http://127.0.0.1:" + port);
    }

    int port() {
        return port;
    }

    /** Starts the process and waits until {@code /health} answers 200 and its local credential is written. */
    ServeInstance start() throws Exception {
        Files.createDirectories(folder);
        Path config = folder.resolve("config.yaml");
        Files.writeString(config, "# " + name + ": the settings are SVC_ variables (ServeInstance)\n"
                + "server_url: \"" + settings.get("server_url") + "\"\n");
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"),
                Svc.class.getName(), "serve", "-c", config.toString()));
        starts++;
        ProcessBuilder builder = new ProcessBuilder(command).directory(folder.toFile()).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log().toFile()));
        settings.forEach((key, value) -> builder.environment().put(
                "SVC_" + key.toUpperCase(Locale.ROOT).replace('.', '_'), value));
        process = ChildProcesses.start(builder);
        awaitHealthy();
        return this;
    }

    /** SIGKILL: no shutdown hook, no goodbye to clients or the database. */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor();
    }

    /** SIGTERM and wait for the process to end (a graceful stop, as systemd's). */
    void stop() {
        ChildProcesses.stop(process, Duration.ofSeconds(30));
    }

    boolean alive() {
        return process != null && process.isAlive();
    }

    private void awaitHealthy() throws Exception {
        Instant deadline = Instant.now().plus(START_TIMEOUT);
        while (Instant.now().isBefore(deadline)) {
            if (!process.isAlive()) {
                throw new IllegalStateException(name + ": svc serve exited with " + process.exitValue() + ":\n"
                        + tail());
            }
            if (healthy() && credentialOfThisProcess()) {
                return;
            }
            Thread.sleep(100);
        }
        throw new IllegalStateException(name + ": svc serve was not healthy within " + START_TIMEOUT + ":\n" + tail());
    }

    boolean healthy() {
        try {
            HttpResponse<Void> response = HTTP.send(HttpRequest.newBuilder(directUrl().resolve("/health"))
                    .timeout(Duration.ofSeconds(2)).build(), HttpResponse.BodyHandlers.discarding());
            return response.statusCode() == 200;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private boolean credentialOfThisProcess() throws IOException {
        Path file = Path.of(settings.get("cli.local_credential_path"));
        LocalAccess access = Files.exists(file) ? LocalAccess.read(file) : null;
        return access != null && Long.valueOf(process.pid()).equals(access.pid());
    }

    /** An admin client of this instance directly, through its local credential. */
    MeshClient localAdmin() throws IOException {
        LocalAccess access = LocalAccess.read(Path.of(settings.get("cli.local_credential_path")));
        return new MeshClient(directUrl(), access.token(), false, BuildInfo.version(), warning -> { });
    }

    Path log() {
        return folder.resolve("serve.log");
    }

    String tail() {
        try {
            List<String> lines = Files.readAllLines(log());
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }

    @Override
    public void close() {
        if (alive()) {
            stop();
        }
    }
}
