package io.meshcontrol.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.api.ApiKeyRequest;
import io.meshcontrol.api.ClientSettings;
import io.meshcontrol.api.ClientSettingsException;
import io.meshcontrol.core.GoDuration;
import io.meshcontrol.core.config.ConfigLoader;
import io.meshcontrol.core.config.ConfigProblem;
import io.meshcontrol.core.config.ConfigRequest;
import io.meshcontrol.core.config.LoadedConfig;
import io.meshcontrol.server.testing.TestServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Management commands read only the cli section: a wrong server section does not stop them. */
class ClientConnectionCliTest {

    /** Three server keys that are wrong, and one the schema does not know. */
    private static final String BROKEN_SERVER_SECTION = """
            log:
              level: loud
            prefixes:
              v4: banana
            listen_addr: nowhere
            no_such_key: 1
            """;

    @TempDir
    Path folder;
    TestServer server;
    Path config;

    @BeforeEach
    void start() {
        server = TestServer.start(folder);
        config = folder.resolve("config.yaml");
    }

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void aWrongServerSectionDoesNotStopTheLocalCli() throws IOException {
        Files.writeString(config, BROKEN_SERVER_SECTION + "cli:\n  local_credential_path: " + server.localCredentialPath() + "\n");
        assertEquals(1, CliRun.withConfig(folder, config, "configtest").exitCode(), "the server would refuse this file");

        CliRun run = CliRun.withConfig(folder, config, "users", "list");
        assertEquals(0, run.exitCode(), run.toString());
        assertEquals("", run.err());
    }

    @Test
    void aWrongServerSectionDoesNotStopTheRemoteCli() throws IOException {
        String apiKey = server.adminClient().createApiKey(new ApiKeyRequest(null, List.of(), "remote", null)).secret();
        Files.writeString(config, BROKEN_SERVER_SECTION + "cli:\n  address: " + server.url() + "\n");
        CliRun run = CliRun.run(folder, Map.of("SVC_CLI_API_KEY", apiKey), "users", "list");
        assertEquals(0, run.exitCode(), run.toString());
    }

    @Test
    void aWrongCliKeyIsOneLineAndExitCodeOne() throws IOException {
        Files.writeString(config, "cli:\n  insecure: maybe\n");
        CliRun run = CliRun.withConfig(folder, config, "users", "list");
        assertEquals(1, run.exitCode(), run.toString());
        assertEquals("svc: cli.insecure: must be true or false (or 1/0, yes/no) (got \"maybe\"), in " + config + "\n",
                run.err());
    }

    @Test
    void aServerThatDoesNotAnswerWithinTheCliTimeoutEndsTheCommandNamingIt() throws IOException {
        // Connections are accepted (by the backlog) and never answered.
        try (ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            Files.writeString(config, "cli:\n  address: http://127.0.0.1:" + silent.getLocalPort() + "\n"
                    + "  api_key: svckey-api-abc\n  timeout: 400ms\n");
            CliRun run = CliRun.withConfig(folder, config, "users", "list");
            assertEquals(1, run.exitCode(), run.toString());
            assertEquals("svc: the server at http://127.0.0.1:" + silent.getLocalPort() + "/ did not answer within 400ms"
                    + " (the timeout, cli.timeout for the CLI)\n", run.err());
        }
    }

    @Test
    void aMissingConfigFileNamedWithDashCIsOneLine() {
        CliRun run = CliRun.withConfig(folder, folder.resolve("absent.yaml"), "users", "list");
        assertEquals(1, run.exitCode(), run.toString());
        assertEquals("svc: config: --config: " + folder.resolve("absent.yaml") + " does not exist\n", run.err());
    }

    /**
     * The client's reader and the server's configuration (which svc configtest checks) must accept the same cli
     * values and read them alike: the two read one section, so they may not disagree.
     */
    @ParameterizedTest(name = "{0}: {1}")
    @CsvSource(delimiter = '|', value = {
            "address               | mesh.example.com",
            "address               | mesh.example.com:8443/prefix",
            "address               | http://127.0.0.1:8080",
            "address               | gopher://mesh.example.com",
            "address               | https://",
            "address               | ''",
            "insecure              | true",
            "insecure              | YES",
            "insecure              | 0",
            "insecure              | maybe",
            "insecure              | ''",
            "local_credential_path | data/cli.json",
            "local_credential_path | /run/svc/cli.json",
            "local_credential_path | ''",
            "api_key               | svckey-api-abc",
            "timeout               | 300ms",
            "timeout               | 1m30s",
            "timeout               | 0s",
            "timeout               | soon",
            "timeout               | ''",
    })
    void clientAndServerReadTheCliSectionAlike(String key, String value) throws IOException {
        for (boolean fromEnv : new boolean[] {false, true}) {
            Map<String, String> env = fromEnv ? Map.of("SVC_CLI_" + key.toUpperCase(java.util.Locale.ROOT), value) : Map.of();
            Files.writeString(config, fromEnv ? "" : "cli:\n  " + key + ": \"" + value + "\"\n");
            LoadedConfig loaded = ConfigLoader.load(new ConfigRequest(config, env, folder, folder));
            List<ConfigProblem> serverProblems = loaded.errors().stream()
                    .filter(problem -> problem.key().equals("cli." + key)).toList();
            ClientSettings client;
            try {
                client = ClientSettings.read(Optional.of(config), env, folder, folder, GoDuration::parse);
            } catch (ClientSettingsException e) {
                assertEquals(1, serverProblems.size(), "only the client refuses it: " + e.getMessage());
                continue;
            }
            assertEquals(List.of(), serverProblems, "only the server refuses it");
            var cli = loaded.config().cli();
            assertEquals(cli.address().map(text -> text.contains("://") ? text : "https://" + text),
                    client.address().map(Object::toString));
            assertEquals(cli.apiKey(), client.apiKey());
            assertEquals(cli.insecure(), client.insecure());
            assertEquals(cli.timeout(), client.timeout());
            cli.localCredentialPath().ifPresent(path -> assertEquals(path, client.localCredential()));
        }
    }
}
