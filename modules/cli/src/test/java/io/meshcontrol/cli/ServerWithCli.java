package io.meshcontrol.cli;

import io.meshcontrol.server.testing.TestServer;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.function.Supplier;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A real server for each test and the {@code svc} command line pointed at it through the server's local credential
 * (a {@code config.yaml} in the test's folder names it). Register it after the folder:
 * <pre>{@code
 * @TempDir Path folder;
 * @RegisterExtension final ServerWithCli cli = ServerWithCli.in(() -> folder);
 * }</pre>
 */
public final class ServerWithCli implements BeforeEachCallback, AfterEachCallback {

    private final Supplier<Path> folder;
    private final boolean relay;
    private final boolean verifyClients;
    private final Map<String, String> settings = new java.util.LinkedHashMap<>();
    private TestServer server;
    private Path config;

    private ServerWithCli(Supplier<Path> folder, boolean relay, boolean verifyClients) {
        this.folder = folder;
        this.relay = relay;
        this.verifyClients = verifyClients;
    }

    /** A server without the embedded relay, its files under {@code folder}, which is also the CLI's working folder. */
    public static ServerWithCli in(Supplier<Path> folder) {
        return new ServerWithCli(folder, false, false);
    }

    /** The same server with the embedded relay on. */
    public ServerWithCli withRelay(boolean verifyClients) {
        return new ServerWithCli(folder, true, verifyClients);
    }

    /** The server with a configuration key set as its {@code SVC_} variable would ({@link TestServer.Builder#set}). */
    public ServerWithCli with(String key, String value) {
        settings.put(key, value);
        return this;
    }

    @Override
    public void beforeEach(ExtensionContext context) throws IOException {
        Path dir = folder.get();
        TestServer.Builder builder = TestServer.in(dir);
        if (relay) {
            builder.relay(verifyClients);
        }
        settings.forEach(builder::set);
        server = builder.start();
        config = CliRun.configFor(server, dir);
    }

    @Override
    public void afterEach(ExtensionContext context) {
        if (server != null) {
            server.close();
        }
    }

    public TestServer server() {
        return server;
    }

    /** The CLI's configuration file; a test may rewrite it. */
    public Path config() {
        return config;
    }

    /** {@code svc args...} through the local credential. */
    public CliRun run(String... args) {
        return CliRun.withConfig(folder.get(), config, args);
    }

    /** {@code svc args...} as remote use sets it up: the server in SVC_CLI_ADDRESS, the key in SVC_CLI_API_KEY. */
    public CliRun remote(String apiKey, String... args) {
        return CliRun.run(folder.get(), Map.of("SVC_CLI_ADDRESS", server.url().toString(), "SVC_CLI_API_KEY", apiKey),
                args);
    }
}
