package io.meshcontrol.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The client reads the cli section and its SVC_CLI_ variables, and nothing else of the file. */
class ClientSettingsTest {

    @TempDir
    Path folder;

    private Path file(String yaml) throws IOException {
        return Files.writeString(folder.resolve("config.yaml"), yaml);
    }

    /** Stands in for the configuration's Go-duration parser (core), which this module does not see. */
    private static Duration duration(String text) {
        return text.endsWith("ms") ? Duration.ofMillis(Long.parseLong(text.substring(0, text.length() - 2)))
                : Duration.ofSeconds(Long.parseLong(text.substring(0, text.length() - 1)));
    }

    private ClientSettings read(Path file, Map<String, String> env) {
        return ClientSettings.read(Optional.ofNullable(file), env, folder, folder.resolve("home"),
                ClientSettingsTest::duration);
    }

    @Test
    void otherSectionsAreNotReadEvenWhenWrong() throws IOException {
        Path file = file("""
                log:
                  level: loud
                prefixes: banana
                no_such_key: [1, 2]
                cli:
                  address: mesh.example.com:8443
                  api_key: svckey-api-abc
                  insecure: yes
                  timeout: 5s
                """);
        ClientSettings settings = read(file, Map.of());
        assertEquals(Optional.of(URI.create("https://mesh.example.com:8443")), settings.address());
        assertEquals(Optional.of("svckey-api-abc"), settings.apiKey());
        assertTrue(settings.insecure());
    }

    @Test
    void variablesBeatTheFileKeyByKey() throws IOException {
        Path file = file("cli:\n  address: http://file.example\n  insecure: true\n  api_key: from-file\n");
        ClientSettings settings = read(file, Map.of("SVC_CLI_ADDRESS", "env.example", "SVC_CLI_INSECURE", "0"));
        assertEquals(Optional.of(URI.create("https://env.example")), settings.address());
        assertFalse(settings.insecure());
        assertEquals(Optional.of("from-file"), settings.apiKey());
        assertEquals(Optional.empty(), read(file, Map.of("SVC_CLI_ADDRESS", "")).address(), "empty means none");
    }

    @Test
    void theTimeoutIsTheFilesOrTheVariablesElseTenSeconds() throws IOException {
        Path file = file("cli:\n  timeout: 300ms\n");
        assertEquals(Duration.ofMillis(300), read(file, Map.of()).timeout());
        assertEquals(Duration.ofSeconds(2), read(file, Map.of("SVC_CLI_TIMEOUT", "2s")).timeout());
        assertEquals(Duration.ofSeconds(10), read(null, Map.of()).timeout());
        ClientSettingsException zero = assertThrows(ClientSettingsException.class,
                () -> read(null, Map.of("SVC_CLI_TIMEOUT", "0ms")));
        assertEquals("cli.timeout: must be at least 1ms (got \"0ms\"), set by SVC_CLI_TIMEOUT", zero.getMessage());
    }

    @ParameterizedTest(name = "cli.address {0} means {1}")
    @CsvSource({
            "mesh.example.com,           https://mesh.example.com",
            "mesh.example.com:8443,      https://mesh.example.com:8443",
            "100.64.0.1,                 https://100.64.0.1",
            "http://127.0.0.1:8080,      http://127.0.0.1:8080",
            "https://mesh.example.com/,  https://mesh.example.com/",
    })
    void bareAddressMeansHttps(String address, String expected) {
        assertEquals(Optional.of(URI.create(expected)), read(null, Map.of("SVC_CLI_ADDRESS", address)).address());
    }

    @Test
    void aWrongKeyIsNamedWithItsValueAndWhereItWasSet() throws IOException {
        Path file = file("cli:\n  insecure: maybe\n");
        ClientSettingsException inFile = assertThrows(ClientSettingsException.class, () -> read(file, Map.of()));
        assertEquals("cli.insecure: must be true or false (or 1/0, yes/no) (got \"maybe\"), in " + file,
                inFile.getMessage());

        ClientSettingsException inEnv = assertThrows(ClientSettingsException.class,
                () -> read(null, Map.of("SVC_CLI_ADDRESS", "gopher://mesh.example.com")));
        assertEquals("cli.address: must be an http:// or https:// URL, or a host with an optional port"
                + " (got \"gopher://mesh.example.com\"), set by SVC_CLI_ADDRESS", inEnv.getMessage());

        Path notAMapping = file("cli: 5\n");
        assertEquals("cli: must be a mapping of keys, in " + notAMapping,
                assertThrows(ClientSettingsException.class, () -> read(notAMapping, Map.of())).getMessage());
    }

    @Test
    void anAliasInTheCliSectionIsRefusedNotReadAsItsName() throws IOException {
        Path file = file("""
                remote: &remote mesh.example.com
                cli:
                  address: *remote
                """);
        ClientSettingsException refused = assertThrows(ClientSettingsException.class, () -> read(file, Map.of()));
        assertEquals("cli.address: is an alias (*remote) at line 3 of " + file + "; the CLI reads its section as"
                + " written: put the value itself there", refused.getMessage());

        Path elsewhere = file("""
                log: &quiet {level: warn}
                other: *quiet
                cli:
                  address: mesh.example.com
                """);
        assertEquals(Optional.of(URI.create("https://mesh.example.com")), read(elsewhere, Map.of()).address(),
                "aliases outside the cli section are the server's business");
    }

    @Test
    void theCredentialIsTheConfiguredFileElseTheDefaultLocation() throws IOException {
        Path file = file("cli:\n  local_credential_path: data/cli.json\n");
        ClientSettings configured = read(file, Map.of());
        assertEquals(folder.resolve("data/cli.json"), configured.localCredential(), "relative to the working directory");
        assertEquals("in " + file, configured.credentialOrigin());

        Map<String, String> env = Map.of("XDG_RUNTIME_DIR", folder.resolve("run").toString());
        ClientSettings unset = read(null, env);
        assertEquals(LocalAccess.defaultLocation(env, folder.resolve("home")), unset.localCredential());
        assertEquals("the default, as cli.local_credential_path is not set", unset.credentialOrigin());
    }

    /**
     * Whatever answers on the credential's port: {@code /version} naming {@code instance} (none: no header), and
     * every request's Authorization header noted.
     */
    private HttpServer portHolder(String instance, List<String> authorizations) throws IOException {
        HttpServer http = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        http.createContext("/", exchange -> {
            authorizations.add(String.valueOf(exchange.getRequestHeaders().getFirst("Authorization")));
            if (instance != null) {
                exchange.getResponseHeaders().add(MeshClient.INSTANCE_HEADER, instance);
            }
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            byte[] body = "{\"version\":\"1.0\",\"java\":\"21\"}".getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        http.start();
        return http;
    }

    private ClientSettings credentialIn(Path run, LocalAccess access) throws IOException {
        access.write(run.resolve("svc/cli-credential.json"));
        return read(null, Map.of("XDG_RUNTIME_DIR", run.toString()));
    }

    private static String url(HttpServer http) {
        return "http://127.0.0.1:" + http.getAddress().getPort();
    }

    @Test
    void theLocalServerIsReachedThroughItsCredentialOnceItNamesItsRun() throws IOException {
        List<String> authorizations = new CopyOnWriteArrayList<>();
        HttpServer server = portHolder("run-1", authorizations);
        try {
            ClientSettings settings = credentialIn(folder.resolve("run"),
                    LocalAccess.ofThisProcess(url(server), "svckey-local-x", "run-1"));
            MeshClient client = settings.open("1.0", warning -> { });
            assertEquals(URI.create(url(server) + "/"), client.baseUrl());
            assertEquals(List.of("null"), authorizations, "the run is asked for its name without the token");
        } finally {
            server.stop(0);
        }
    }

    @ParameterizedTest(name = "answering with instance {0}")
    @CsvSource(value = {"run-2", "NONE"}, nullValues = "NONE")
    void anotherProgramOnThePortNeverSeesTheToken(String instance) throws IOException {
        List<String> authorizations = new CopyOnWriteArrayList<>();
        HttpServer squatter = portHolder(instance, authorizations);
        try {
            Path run = folder.resolve("run");
            ClientSettings settings = credentialIn(run, LocalAccess.ofThisProcess(url(squatter), "svckey-local-x", "run-1"));
            LocalServerNotFoundException e = assertThrows(LocalServerNotFoundException.class,
                    () -> settings.open("1.0", warning -> { }));
            assertEquals("the program answering at " + url(squatter) + " is not the local server that wrote "
                    + run.resolve("svc/cli-credential.json") + " (process " + ProcessHandle.current().pid()
                    + "); the local credential was not sent to it", e.getMessage());
            assertEquals(List.of("null"), authorizations);
        } finally {
            squatter.stop(0);
        }
    }

    @Test
    void aCredentialWhoseServerIsGoneIsNotTrusted() throws Exception {
        Process ended = new ProcessBuilder("true").start();
        ended.waitFor();
        List<String> authorizations = new CopyOnWriteArrayList<>();
        HttpServer squatter = portHolder("run-1", authorizations);
        try {
            Path run = folder.resolve("run");
            ClientSettings settings = credentialIn(run, new LocalAccess(url(squatter), "svckey-local-x", ended.pid(),
                    ended.info().startInstant().orElse(null), "run-1"));
            LocalServerNotFoundException e = assertThrows(LocalServerNotFoundException.class,
                    () -> settings.open("1.0", warning -> { }));
            assertEquals("the local server that wrote " + run.resolve("svc/cli-credential.json") + " (process "
                    + ended.pid() + ") is no longer running", e.getMessage());
            assertEquals(List.of(), authorizations, "nothing is asked of whatever holds the port now");
        } finally {
            squatter.stop(0);
        }
    }

    @Test
    void aCredentialThatDoesNotNameItsWriterIsNotTrusted() throws IOException {
        Path credential = folder.resolve("run/svc/cli-credential.json");
        Files.createDirectories(credential.getParent());
        Files.writeString(credential, "{\"url\":\"http://127.0.0.1:1\",\"token\":\"svckey-local-x\"}");
        ClientSettings settings = read(null, Map.of("XDG_RUNTIME_DIR", folder.resolve("run").toString()));
        LocalServerNotFoundException e = assertThrows(LocalServerNotFoundException.class,
                () -> settings.open("1.0", warning -> { }));
        assertEquals("the credential " + credential + " (the default, as cli.local_credential_path is not set) does"
                + " not say which server wrote it (a server of an earlier version did); restart that server",
                e.getMessage());
    }

    @Test
    void noCredentialSaysWhereItLooked() {
        ClientSettings settings = read(null, Map.of("XDG_RUNTIME_DIR", folder.resolve("run").toString()));
        LocalServerNotFoundException e = assertThrows(LocalServerNotFoundException.class,
                () -> settings.open("1.0", warning -> { }));
        assertEquals("no server is running on this machine: there is no credential at "
                + folder.resolve("run/svc/cli-credential.json") + " (the default, as cli.local_credential_path is not set)",
                e.getMessage());
    }

    @Test
    void anAddressNeedsAnApiKey() {
        ClientSettings settings = read(null, Map.of("SVC_CLI_ADDRESS", "mesh.example.com"));
        ClientSettingsException e = assertThrows(ClientSettingsException.class, () -> settings.open("1.0", w -> { }));
        assertTrue(e.getMessage().endsWith("set cli.api_key or SVC_CLI_API_KEY"), e.getMessage());
    }
}
