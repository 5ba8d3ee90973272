package io.meshcontrol.server.tls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.core.config.MeshConfig;
import io.meshcontrol.core.state.FetchedDocuments;
import io.meshcontrol.core.state.Network;
import io.meshcontrol.core.state.NetworkOptions;
import io.meshcontrol.server.testing.TestCertificateAuthority;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** When the stored ACME certificate is served, and when it is replaced. */
class AcmeRenewalTest {

    @TempDir
    Path folder;

    private final TestCertificateAuthority ca = TestCertificateAuthority.create("Test Root");
    private Network network;

    @AfterEach
    void close() {
        if (network != null) {
            network.close();
        }
    }

    private FetchedDocuments documents() {
        if (network == null) {
            network = Network.open(folder.resolve("db.sqlite"), true, Clock.systemUTC(), NetworkOptions.defaults());
        }
        return network.fetchedDocuments();
    }

    private AcmeCertificate acmeFor(String host) {
        return new AcmeCertificate(new MeshConfig.LetsEncrypt(Optional.of(host), folder,
                MeshConfig.LetsEncrypt.Challenge.HTTP_01, ":http", "acme://pebble/localhost:1", ""),
                new AcmeChallenges(documents()), Clock.systemUTC(), documents(), Duration.ZERO);
    }

    @Test
    void theStoredCertificateIsServedUntilTwoThirdsOfItsLifetimeHavePassed() {
        var issued = ca.issue(folder.resolve("mesh.example.com.crt.pem"), folder.resolve("mesh.example.com.key.pem"),
                "mesh.example.com");
        AcmeCertificate acme = acmeFor("mesh.example.com");
        assertEquals(issued.leaf(), acme.get().leaf());
        Instant start = issued.leaf().getNotBefore().toInstant();
        Duration lifetime = Duration.between(start, issued.leaf().getNotAfter().toInstant());
        Instant renewal = start.plus(lifetime.multipliedBy(2).dividedBy(3));
        assertFalse(acme.due(renewal.minusSeconds(1)));
        assertTrue(acme.due(renewal));
    }

    @Test
    void withoutACertificateAPlaceholderIsServedAndOneIsDue() {
        AcmeCertificate acme = acmeFor("mesh.example.com");
        assertTrue(acme.obtained().isEmpty());
        assertTrue(acme.due(Instant.now()));
        assertTrue(acme.get().leaf().getSubjectX500Principal().getName().contains("mesh.example.com"));
    }

    @Test
    void theCertificateStoredForTheNetworkWinsOverThisInstancesFiles() throws Exception {
        ca.issue(folder.resolve("mesh.example.com.crt.pem"), folder.resolve("mesh.example.com.key.pem"),
                "mesh.example.com");
        var shared = ca.issue(folder.resolve("shared.crt.pem"), folder.resolve("shared.key.pem"), "mesh.example.com");
        documents().save("acme-certificate:mesh.example.com", Files.readString(shared.certificate())
                + Files.readString(shared.key()));
        assertEquals(shared.leaf(), acmeFor("mesh.example.com").get().leaf());

        documents().save("acme-certificate:mesh.example.com", "not a certificate");
        assertEquals(CertifiedKey.parse(Files.readString(folder.resolve("mesh.example.com.crt.pem")),
                Files.readString(folder.resolve("mesh.example.com.key.pem"))).leaf(),
                acmeFor("mesh.example.com").get().leaf(), "an unreadable stored copy falls back to the files");
    }

    @Test
    void aStoredCertificateForAnotherHostIsReplaced() {
        ca.issue(folder.resolve("mesh.example.com.crt.pem"), folder.resolve("mesh.example.com.key.pem"),
                "other.example.com");
        assertTrue(acmeFor("mesh.example.com").due(Instant.now()));
    }
}
