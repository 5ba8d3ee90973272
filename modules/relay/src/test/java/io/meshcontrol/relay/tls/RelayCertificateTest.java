package io.meshcontrol.relay.tls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RelayCertificateTest {

    private static final Instant NOW = Instant.parse("2026-11-24T05:00:00Z");

    @TempDir
    Path folder;

    @Test
    void pinIsTheSha256OfTheCertificateBytes() throws Exception {
        RelayCertificate cert = RelayCertificate.loadOrCreate(folder.resolve("tls.pem"), "mesh.example.com", NOW);
        String hash = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                .digest(cert.certificate().getEncoded()));
        assertEquals("sha256-raw:" + hash, cert.pin());
    }

    @Test
    void certificateIsKeptAcrossLoadsSoThePinStays() throws Exception {
        Path file = folder.resolve("tls.pem");
        String first = RelayCertificate.loadOrCreate(file, "192.0.2.7", NOW).pin();
        assertEquals(first, RelayCertificate.loadOrCreate(file, "192.0.2.7", NOW.plus(Duration.ofDays(30))).pin());
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
    }

    @Test
    void hostNamesGoInDnsNamesAndAddressesInIpNames() throws Exception {
        RelayCertificate named = RelayCertificate.loadOrCreate(folder.resolve("a.pem"), "mesh.example.com", NOW);
        assertEquals(List.of(List.of(2, "mesh.example.com")), List.copyOf(named.certificate()
                .getSubjectAlternativeNames().stream().map(List::copyOf).toList()));
        RelayCertificate address = RelayCertificate.loadOrCreate(folder.resolve("b.pem"), "192.0.2.7", NOW);
        assertEquals(List.of(List.of(7, "192.0.2.7")), List.copyOf(address.certificate()
                .getSubjectAlternativeNames().stream().map(List::copyOf).toList()));
        address.certificate().checkValidity(java.util.Date.from(NOW));
    }

    @Test
    void anotherHostOrNearExpiryMakesANewCertificate() throws Exception {
        Path file = folder.resolve("tls.pem");
        String first = RelayCertificate.loadOrCreate(file, "192.0.2.7", NOW).pin();
        assertNotEquals(first, RelayCertificate.loadOrCreate(file, "mesh.example.com", NOW).pin());
        String second = RelayCertificate.loadOrCreate(file, "mesh.example.com", NOW).pin();
        assertNotEquals(second, RelayCertificate.loadOrCreate(file, "mesh.example.com",
                NOW.plus(Duration.ofDays(3650 - 10))).pin());
        assertTrue(Files.readString(file).contains("-----BEGIN CERTIFICATE-----"));
    }
}
