package io.meshcontrol.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.api.ApiKeyRequest;
import io.meshcontrol.server.testing.TestServer;
import io.undertow.Handlers;
import io.undertow.Undertow;
import io.undertow.server.handlers.proxy.LoadBalancingProxyClient;
import io.undertow.server.handlers.proxy.ProxyHandler;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Remote use as operators set it up: the server behind a TLS reverse proxy under a path prefix, the CLI
 * configured only through SVC_CLI_* variables, with a bare host (meaning https).
 */
class RemoteCliTest {

    @TempDir
    Path folder;
    TestServer server;
    Undertow proxy;
    String apiKey;

    @BeforeEach
    void start() throws Exception {
        server = TestServer.start(folder);
        apiKey = server.adminClient().createApiKey(new ApiKeyRequest(null, List.of(), "remote", null)).secret();
        LoadBalancingProxyClient upstream = new LoadBalancingProxyClient().addHost(server.url());
        proxy = Undertow.builder()
                .addHttpsListener(0, "127.0.0.1", selfSignedTls())
                .setHandler(Handlers.path().addPrefixPath("/mesh", ProxyHandler.builder().setProxyClient(upstream).build()))
                .build();
        proxy.start();
    }

    @AfterEach
    void stop() {
        proxy.stop();
        server.close();
    }

    private String bareAddress() {
        int port = ((InetSocketAddress) proxy.getListenerInfo().getFirst().getAddress()).getPort();
        return "127.0.0.1:" + port + "/mesh";
    }

    @Test
    void worksThroughAReverseProxyUnderAPathPrefix() {
        CliRun run = CliRun.run(folder, Map.of("SVC_CLI_ADDRESS", bareAddress(), "SVC_CLI_API_KEY", apiKey,
                "SVC_CLI_INSECURE", "1"), "apikeys", "list", "-o", "json");
        assertEquals(0, run.exitCode(), run.toString());
        assertTrue(run.out().contains("\"description\" : \"remote\""), run.out());
    }

    @Test
    void bareHostMeansHttpsAndCertificatesAreVerifiedByDefault() {
        CliRun run = CliRun.run(folder, Map.of("SVC_CLI_ADDRESS", bareAddress(), "SVC_CLI_API_KEY", apiKey),
                "users", "list");
        assertEquals(1, run.exitCode());
        assertTrue(run.err().startsWith("svc: cannot reach the server at https://" + bareAddress() + "/"), run.err());
        assertEquals(1, run.err().lines().count(), run.err());
    }

    @Test
    void versionMismatchIsReported(@TempDir Path other) {
        try (TestServer newer = TestServer.start(other, "99.0.0")) {
            String key = newer.adminClient().createApiKey(new ApiKeyRequest(null, List.of(), "", null)).secret();
            CliRun run = CliRun.run(folder, Map.of("SVC_CLI_ADDRESS", newer.url().toString(), "SVC_CLI_API_KEY", key),
                    "users", "list");
            assertEquals(0, run.exitCode(), run.toString());
            assertTrue(run.err().contains("warning: svc " + Svc.version() + " is talking to a server of version 99.0.0"),
                    run.err());
        }
    }

    /** A throwaway certificate made by the JDK's own keytool. */
    private SSLContext selfSignedTls() throws Exception {
        Path keystore = folder.resolve("proxy.p12");
        Process keytool = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
                "-genkeypair", "-alias", "proxy", "-keyalg", "EC", "-groupname", "secp256r1", "-dname", "CN=localhost",
                "-ext", "SAN=ip:127.0.0.1,dns:localhost", "-validity", "2", "-storetype", "PKCS12",
                "-keystore", keystore.toString(), "-storepass", "changeit", "-keypass", "changeit")
                .redirectErrorStream(true).start();
        String output = new String(keytool.getInputStream().readAllBytes());
        assertTrue(keytool.waitFor(60, TimeUnit.SECONDS) && keytool.exitValue() == 0, output);
        KeyStore store = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(keystore)) {
            store.load(in, "changeit".toCharArray());
        }
        KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        keys.init(store, "changeit".toCharArray());
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(keys.getKeyManagers(), null, null);
        return context;
    }
}
