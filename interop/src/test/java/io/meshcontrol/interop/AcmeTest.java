package io.meshcontrol.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.meshcontrol.api.PreAuthKeyRequest;
import io.meshcontrol.api.UserRequest;
import io.meshcontrol.core.OwnerOnlyFiles;
import io.meshcontrol.core.testing.PostgresCluster;
import io.meshcontrol.server.testing.TestServer;
import io.meshcontrol.server.tls.CertifiedKey;
import java.io.ByteArrayInputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import javax.net.ssl.SNIHostName;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The server obtains its certificate by ACME from a real CA, Let's Encrypt's pebble, on loopback: by HTTP-01 on
 * {@code tls_letsencrypt_listen} and by TLS-ALPN-01 on the main listener; keeps it (and the account key) in owner-only
 * files and serves it again after a restart without asking the CA; and stock tailscaled, trusting pebble's root,
 * joins over HTTPS and relays through the embedded relay with that certificate. Two instances on one PostgreSQL
 * database: the holder of the singleton lease obtains it, and the other serves the one it stored.
 */
class AcmeTest {

    private static final Duration ISSUANCE = Duration.ofSeconds(60);

    @RegisterExtension
    final TailscaleNodes nodes = new TailscaleNodes();

    @TempDir
    Path folder;

    private Pebble pebble;
    private TestNetwork network;
    private int serverPort;

    @AfterEach
    void stop() throws Exception {
        if (network != null) {
            network.close();
        }
        if (pebble != null) {
            pebble.close();
        }
    }

    private Path cacheDir() {
        return folder.resolve("data/acme");
    }

    private UnaryOperator<TestServer.Builder> acme(String challenge, int httpPort) {
        return server -> server.relay(true)
                .set("listen_addr", "127.0.0.1:" + serverPort)
                .set("server_url", "https://localhost:" + serverPort)
                .set("tls_letsencrypt_hostname", "localhost")
                .set("tls_letsencrypt_challenge_type", challenge)
                .set("tls_letsencrypt_listen", "127.0.0.1:" + httpPort)
                .set("tls_letsencrypt_cache_dir", cacheDir().toString())
                .set("acme_url", pebble.acmeUrl());
    }

    /**
     * The main listener on a port free now, written again for another should a test running beside this one take it
     * first. Only for HTTP-01: TLS-ALPN-01 needs the port pebble was started with.
     */
    private static TestServer.Builder onFreeHttpsPort(TestServer.Builder server) {
        return server.onFreePort((builder, port) -> builder.set("listen_addr", "127.0.0.1:" + port)
                .set("server_url", "https://localhost:" + port));
    }

    private CertifiedKey awaitCertificate(TestServer server) throws InterruptedException {
        Instant deadline = Instant.now().plus(ISSUANCE);
        var acme = server.server.https().acme().orElseThrow();
        while (acme.obtained().isEmpty() && Instant.now().isBefore(deadline)) {
            Thread.sleep(100);
        }
        return acme.obtained().orElseThrow(() -> new AssertionError("no certificate from pebble within " + ISSUANCE));
    }

    @Test
    void obtainsACertificateByHttp01AndATailscaledJoinsWithIt() throws Exception {
        serverPort = Pebble.freeTcpPort();
        int httpPort = Pebble.freeTcpPort();
        pebble = Pebble.start(folder.resolve("pebble"), httpPort, serverPort);
        network = TestNetwork.withEmbeddedRelay(folder, nodes,
                server -> onFreeHttpsPort(acme("HTTP-01", httpPort).apply(server)));
        TestServer server = network.server();
        serverPort = server.url().getPort();
        CertifiedKey obtained = awaitCertificate(server);
        String roots = pebble.roots();
        assertEquals(obtained.leaf(), presented(roots));
        assertTrue(obtained.leaf().getIssuerX500Principal().getName().contains("Pebble"),
                obtained.leaf().getIssuerX500Principal().getName());
        for (Path file : List.of(cacheDir().resolve("acme-account.pem"), cacheDir().resolve("localhost.crt.pem"),
                cacheDir().resolve("localhost.key.pem"))) {
            assertEquals(OwnerOnlyFiles.FILE, Files.getPosixFilePermissions(file), file.toString());
        }
        assertEquals(OwnerOnlyFiles.FOLDER, Files.getPosixFilePermissions(cacheDir()));

        Path rootsFile = Files.writeString(folder.resolve("pebble-roots.pem"), roots);
        server.adminClient().createUser(new UserRequest("alice", "Alice", "alice@example.com", "admin"));
        String key = server.adminClient().createPreAuthKey(
                new PreAuthKeyRequest("alice", null, true, false, false, "t", null)).secret();
        URI loginServer = URI.create("https://localhost:" + serverPort);
        ClientVersion version = ClientVersions.newest();
        TailscaleNode a = network.builder(version, "a").env("SSL_CERT_FILE", rootsFile.toString()).start();
        a.up(loginServer, key, "a").requireOk();
        TailscaleNode b = network.builder(version, "b").env("SSL_CERT_FILE", rootsFile.toString()).start();
        b.up(loginServer, key, "b").requireOk();
        a.awaitStatus("b online", s -> s.peerList().stream()
                .anyMatch(p -> p.dnsName().startsWith("b.") && p.online()), Duration.ofSeconds(30));
        CliResult ping = null;
        for (int attempt = 0; attempt < 5 && (ping == null || !ping.ok()); attempt++) {
            ping = a.ping("b");
        }
        assertTrue(ping.ok(), ping.describe());
        assertTrue(server.server.relay().orElseThrow().derp().stats().forwarded.sum() > 0,
                "nothing was relayed through the embedded relay");
    }

    @Test
    void obtainsACertificateByTlsAlpn01OnTheMainListenerAndKeepsItAcrossARestart() throws Exception {
        serverPort = Pebble.freeTcpPort();
        int httpPort = Pebble.freeTcpPort();
        pebble = Pebble.start(folder.resolve("pebble"), httpPort, serverPort);
        network = TestNetwork.withEmbeddedRelay(folder, nodes, acme("TLS-ALPN-01", httpPort));
        CertifiedKey obtained = awaitCertificate(network.server());
        String roots = pebble.roots();
        assertEquals(obtained.leaf(), presented(roots));
        assertEquals(-1, network.server().server.https().challengePort(), "TLS-ALPN-01 needs no HTTP listener");
        network.close();
        network = null;
        pebble.close();
        pebble = null;

        // The CA is gone: the restarted server serves what it stored, and asks for nothing.
        network = TestNetwork.withEmbeddedRelay(folder, nodes, server -> server.relay(true)
                .set("listen_addr", "127.0.0.1:" + serverPort)
                .set("server_url", "https://localhost:" + serverPort)
                .set("tls_letsencrypt_hostname", "localhost")
                .set("tls_letsencrypt_challenge_type", "TLS-ALPN-01")
                .set("tls_letsencrypt_cache_dir", cacheDir().toString())
                .set("acme_url", "acme://pebble/localhost:1"));
        assertEquals(obtained.leaf(), network.server().server.https().acme().orElseThrow().obtained()
                .orElseThrow().leaf());
        assertEquals(obtained.leaf(), presented(roots));
    }

    @Test
    void onOneDatabaseTheLeaseHolderObtainsTheCertificateAndTheOtherInstanceServesIt() throws Exception {
        assumeTrue(PostgresCluster.installed(), "PostgreSQL is not installed (scripts/install-test-packages.sh)");
        Map<String, String> database = PostgresCluster.shared().newEmptyDatabaseConfig();
        serverPort = Pebble.freeTcpPort();
        int httpPort = Pebble.freeTcpPort();
        pebble = Pebble.start(folder.resolve("pebble"), httpPort, serverPort);
        TestServer.Builder first = acme("HTTP-01", httpPort).apply(TestServer.in(folder.resolve("first")))
                .set("tls_letsencrypt_cache_dir", folder.resolve("first/acme").toString());
        database.forEach(first::set);
        onFreeHttpsPort(first);
        try (TestServer holder = first.start()) {
            CertifiedKey obtained = awaitCertificate(holder);
            assertTrue(holder.application.singletonLease().held());

            // The second instance's challenge listener is never asked for: port 0 will do.
            TestServer.Builder second = acme("HTTP-01", 0).apply(TestServer.in(folder.resolve("second")))
                    .set("tls_letsencrypt_cache_dir", folder.resolve("second/acme").toString());
            database.forEach(second::set);
            onFreeHttpsPort(second);
            try (TestServer other = second.start()) {
                int otherPort = other.url().getPort();
                assertFalse(other.application.singletonLease().held(), "the first instance holds the lease");
                assertEquals(obtained.leaf(), other.server.https().acme().orElseThrow().obtained().orElseThrow().leaf(),
                        "the second instance serves the stored certificate from its start");
                assertEquals(obtained.leaf(), presented(pebble.roots(), otherPort));
            }
        }
    }

    /** The certificate a client trusting only {@code rootsPem} is shown for "localhost" on the main listener. */
    private X509Certificate presented(String rootsPem) throws Exception {
        return presented(rootsPem, serverPort);
    }

    private X509Certificate presented(String rootsPem, int port) throws Exception {
        KeyStore trust = KeyStore.getInstance("PKCS12");
        trust.load(null, null);
        trust.setCertificateEntry("root", CertificateFactory.getInstance("X.509")
                .generateCertificate(new ByteArrayInputStream(rootsPem.getBytes(StandardCharsets.US_ASCII))));
        TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        factory.init(trust);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, factory.getTrustManagers(), null);
        try (SSLSocket socket = (SSLSocket) context.getSocketFactory().createSocket("127.0.0.1", port)) {
            SSLParameters parameters = socket.getSSLParameters();
            parameters.setServerNames(List.of(new SNIHostName("localhost")));
            parameters.setEndpointIdentificationAlgorithm("HTTPS");
            socket.setSSLParameters(parameters);
            socket.startHandshake();
            return (X509Certificate) socket.getSession().getPeerCertificates()[0];
        }
    }
}
