package io.meshcontrol.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.meshcontrol.api.PreAuthKeyRequest;
import io.meshcontrol.api.UserRequest;
import io.meshcontrol.server.testing.KnotServer;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code tailscale cert} on a stock client: the server offers the node its MagicDNS name ({@code CertDomains}), the
 * client asks Let's Encrypt's test CA (pebble, behind {@link PebbleFront}, through
 * {@code TS_DEBUG_ACME_DIRECTORY_URL}) for a certificate by
 * DNS-01, hands its challenge record to {@code /machine/set-dns}, and the server publishes it through the command
 * hook, a script that sets it on {@code pebble-challtestsrv}, the DNS server pebble validates against; or through
 * RFC 2136 updates to Knot, which pebble then asks. The client writes a certificate for its name, issued by pebble.
 */
class TailscaleCertTest {

    private static final Duration ISSUANCE = Duration.ofSeconds(120);

    @RegisterExtension
    final TailscaleNodes nodes = new TailscaleNodes();

    @TempDir
    Path folder;

    private KnotServer knot;
    private Pebble pebble;
    private PebbleFront front;
    private TestNetwork network;

    @AfterEach
    void stop() throws Exception {
        if (network != null) {
            network.close();
        }
        if (front != null) {
            front.close();
        }
        if (pebble != null) {
            pebble.close();
        }
        if (knot != null) {
            knot.close();
        }
    }

    /**
     * Joins a node "web" of {@code version} that asks pebble (through the front) for certificates, runs
     * {@code tailscale cert} for {@code name} and returns the certificate it wrote, checked to be pebble's.
     */
    private X509Certificate certificate(ClientVersion version, String name) throws Exception {
        network.admin().createUser(new UserRequest("alice", "Alice", "alice@example.com", "member"));
        String key = network.admin().createPreAuthKey(
                new PreAuthKeyRequest("alice", null, true, false, false, "", null)).secret();
        TailscaleNode node = network.join(network.builder(version, "web")
                .env("TS_DEBUG_ACME_DIRECTORY_URL", front.directoryUrl())
                .env("SSL_CERT_FILE", Pebble.apiCertificate().toString())
                .start(), "web", key);
        Path certFile = folder.resolve("web.crt");
        Path keyFile = folder.resolve("web.key");
        CliResult cert = node.cli(ISSUANCE, "cert", "--cert-file", certFile.toString(), "--key-file",
                keyFile.toString(), name);
        assertTrue(cert.ok(), cert.describe() + "\n" + node.logTail(60));
        X509Certificate leaf;
        try (InputStream in = Files.newInputStream(certFile)) {
            leaf = (X509Certificate) CertificateFactory.getInstance("X.509").generateCertificate(in);
        }
        assertTrue(leaf.getIssuerX500Principal().getName().contains("Pebble"), leaf.getIssuerX500Principal().getName());
        assertTrue(Files.readString(keyFile).contains("PRIVATE KEY"));
        return leaf;
    }

    /** The command hook: sets and clears the record on pebble's DNS server, and notes each call. */
    private Path hook(Path calls) throws Exception {
        Path script = folder.resolve("dns-hook.sh");
        Files.writeString(script, """
                #!/bin/sh
                set -eu
                echo "$1 $2 $3" >> '%s'
                case "$1" in
                  present) curl -fsS --noproxy '*' -d "{\\"host\\":\\"$2.\\",\\"value\\":\\"$3\\"}" '%s/set-txt' ;;
                  cleanup) curl -fsS --noproxy '*' -d "{\\"host\\":\\"$2.\\"}" '%s/clear-txt' ;;
                  *) echo "unknown action $1" >&2; exit 2 ;;
                esac
                """.formatted(calls, pebble.dnsManagementUrl(), pebble.dnsManagementUrl()));
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwx------"));
        return script;
    }

    /**
     * The same with an RFC 2136 provider: the record goes by a TSIG-signed update to a real DNS server, Knot, which
     * is also the server pebble validates against, and stays there until its lifetime has passed.
     */
    @Test
    void tailscaleCertGetsACertificateThroughADnsServerTakingDynamicUpdates() throws Exception {
        assumeTrue(KnotServer.available(), "Knot (knotd, kdig) is not installed: scripts/install-test-packages.sh");
        knot = KnotServer.start(folder.resolve("knot"));
        pebble = Pebble.start(folder.resolve("pebble"), Pebble.freeTcpPort(), Pebble.freeTcpPort(),
                "127.0.0.1:" + knot.port());
        front = PebbleFront.start(pebble.acmePort());
        network = TestNetwork.withEmbeddedRelay(folder, nodes, server -> server
                .set("https_certificates.enabled", "true")
                .set("https_certificates.dns_provider", "rfc2136")
                .set("https_certificates.rfc2136.server", "127.0.0.1:" + knot.port())
                .set("https_certificates.rfc2136.tsig_key_name", "mesh-sha256")
                .set("https_certificates.rfc2136.tsig_secret",
                        Base64.getEncoder().encodeToString(knot.secret("hmac-sha256"))));
        String name = "web." + network.server().server.mapContext().baseDomain();
        assertEquals(KnotServer.ZONE, network.server().server.mapContext().baseDomain(),
                "the records go to the zone of the base domain");

        X509Certificate leaf = certificate(ClientVersions.newest(), name);
        assertEquals(List.of(List.of(2, name)), leaf.getSubjectAlternativeNames().stream().toList());
        assertEquals(1, knot.txt("_acme-challenge." + name).size(), "published, and kept for its lifetime");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.meshcontrol.interop.ClientVersions#all")
    void tailscaleCertGetsACertificateForTheNodesName(ClientVersion version) throws Exception {
        pebble = Pebble.start(folder.resolve("pebble"), Pebble.freeTcpPort(), Pebble.freeTcpPort());
        front = PebbleFront.start(pebble.acmePort());
        Path calls = folder.resolve("hook-calls.txt");
        Path script = hook(calls);
        network = TestNetwork.withEmbeddedRelay(folder, nodes, server -> server
                .set("https_certificates.enabled", "true")
                .set("https_certificates.dns_provider", "command")
                .set("https_certificates.command.path", script.toString()));
        String name = "web." + network.server().server.mapContext().baseDomain();
        X509Certificate leaf = certificate(version, name);
        assertEquals(List.of(List.of(2, name)), leaf.getSubjectAlternativeNames().stream().toList(),
                "the certificate names the node's MagicDNS name, and only it");
        List<String> hookCalls = Files.readAllLines(calls);
        assertEquals(1, hookCalls.size(), hookCalls.toString());
        assertTrue(hookCalls.getFirst().startsWith("present _acme-challenge." + name + " "), hookCalls.toString());
    }
}
