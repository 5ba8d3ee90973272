package io.meshcontrol.server.tls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.meshcontrol.core.wire.DERPNode;
import io.meshcontrol.server.testing.TestCertificateAuthority;
import io.meshcontrol.server.testing.TestServer;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.cert.X509Certificate;
import java.util.List;
import javax.net.ssl.SNIHostName;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** HTTPS from {@code tls_cert_path} and {@code tls_key_path}: served, reloaded when the files change. */
class HttpsFromFilesTest {

    @TempDir
    Path folder;

    private final TestCertificateAuthority ca = TestCertificateAuthority.create("Test Root");
    private TestServer server;

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
    }

    private Path cert() {
        return folder.resolve("tls/cert.pem");
    }

    private Path key() {
        return folder.resolve("tls/key.pem");
    }

    private TestServer start() {
        server = TestServer.in(folder).relay(true)
                .set("server_url", "https://localhost:8443")
                .set("tls_cert_path", cert().toString())
                .set("tls_key_path", key().toString())
                .start();
        return server;
    }

    /** The certificate a new TLS connection to the main listener is shown. */
    private X509Certificate presented() throws IOException {
        try (SSLSocket socket = (SSLSocket) ca.clientContext().getSocketFactory()
                .createSocket("127.0.0.1", server.server.httpAddress().getPort())) {
            SSLParameters parameters = socket.getSSLParameters();
            parameters.setServerNames(List.of(new SNIHostName("localhost")));
            parameters.setEndpointIdentificationAlgorithm("HTTPS");
            socket.setSSLParameters(parameters);
            socket.startHandshake();
            return (X509Certificate) socket.getSession().getPeerCertificates()[0];
        }
    }

    @Test
    void servesTheApiOverHttpsWithTheCertificateFromTheFiles() throws Exception {
        var issued = ca.issue(cert(), key(), "localhost", "127.0.0.1");
        start();
        assertEquals(issued.leaf(), presented());
        HttpClient client = HttpClient.newBuilder().sslContext(ca.clientContext()).build();
        HttpResponse<String> version = client.send(HttpRequest.newBuilder(
                URI.create("https://localhost:" + server.server.httpAddress().getPort() + "/version")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, version.statusCode());
        // The local credential names the HTTPS address, and the CLI's client gets through with it.
        assertEquals("https", server.url().getScheme());
        assertTrue(server.adminClient().users().isEmpty());
    }

    @Test
    void newHandshakesSeeACertificateReplacedOnDisk() throws Exception {
        var first = ca.issue(cert(), key(), "localhost");
        start();
        assertEquals(first.leaf(), presented());
        var second = ca.issue(cert(), key(), "localhost");
        assertEquals(second.leaf(), presented());
    }

    @Test
    void aKeyThatDoesNotFitTheNewCertificateKeepsTheOldPairUntilItDoes() throws Exception {
        var first = ca.issue(cert(), key(), "localhost");
        start();
        var second = ca.issue(folder.resolve("next/cert.pem"), folder.resolve("next/key.pem"), "localhost");
        // Replaced one file at a time, as a copy does: the certificate first.
        Files.copy(second.certificate(), cert(), StandardCopyOption.REPLACE_EXISTING);
        assertEquals(first.leaf(), presented());
        Files.copy(second.key(), key(), StandardCopyOption.REPLACE_EXISTING);
        assertEquals(second.leaf(), presented());
    }

    @Test
    void theRelayIsPublishedOnServerUrlWithoutAPortOfItsOwn() throws Exception {
        ca.issue(cert(), key(), "localhost");
        start();
        DERPNode node = server.server.mapContext().derpMap().regions().get(999).nodes().getFirst();
        assertEquals("localhost", node.hostName());
        assertEquals(server.server.httpAddress().getPort(), node.derpPort());
        assertTrue(node.certName() == null || node.certName().isEmpty(),
                "a CA-signed certificate is checked by name, not pinned: " + node.certName());
        assertEquals(-1, server.server.relay().orElseThrow().tlsPort());
    }

    @Test
    void aKeyFileThatIsNoKeyStopsTheStartNamingIt() throws Exception {
        ca.issue(cert(), key(), "localhost");
        Files.writeString(key(), "not a key");
        RuntimeException e = assertThrows(RuntimeException.class, this::start);
        assertTrue(e.getMessage().contains(key().toString()) && e.getMessage().contains("PRIVATE KEY"),
                e.getMessage());
    }
}
