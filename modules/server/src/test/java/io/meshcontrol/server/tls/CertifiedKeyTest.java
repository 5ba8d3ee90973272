package io.meshcontrol.server.tls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.server.testing.TestCertificateAuthority;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The PEM forms certificate tools write are read; what cannot serve is refused with its reason. */
class CertifiedKeyTest {

    @TempDir
    Path folder;

    private final TestCertificateAuthority ca = TestCertificateAuthority.create("Test Root");

    private static String pem(String type, byte[] der) {
        return CertifiedKey.pem(type, der);
    }

    /** The SEC 1 or PKCS#1 body inside a PKCS#8 key: what "EC PRIVATE KEY" and "RSA PRIVATE KEY" hold. */
    private static byte[] inner(PrivateKey key) throws IOException {
        return PrivateKeyInfo.getInstance(key.getEncoded()).parsePrivateKey().toASN1Primitive().getEncoded();
    }

    @Test
    void readsAChainWithAPkcs8Key() throws Exception {
        var issued = ca.issue(folder.resolve("cert.pem"), folder.resolve("key.pem"), "mesh.example.com");
        CertifiedKey pair = CertifiedKey.parse(Files.readString(issued.certificate()), Files.readString(issued.key()));
        assertEquals(issued.leaf(), pair.leaf());
        assertEquals(2, pair.chain().size(), "leaf and root");
        assertTrue(pair.matches());
    }

    @Test
    void readsAnSec1EcKeyAsOpensslWritesIt() throws Exception {
        var issued = ca.issue(folder.resolve("cert.pem"), folder.resolve("key.pem"), "mesh.example.com");
        PrivateKey pkcs8 = CertifiedKey.parse(Files.readString(issued.certificate()), Files.readString(issued.key())).key();
        // OpenSSL's form names the curve inside the SEC 1 structure.
        PrivateKeyInfo info = PrivateKeyInfo.getInstance(pkcs8.getEncoded());
        byte[] sec1 = new org.bouncycastle.asn1.sec.ECPrivateKey(256,
                org.bouncycastle.asn1.sec.ECPrivateKey.getInstance(info.parsePrivateKey()).getKey(),
                info.getPrivateKeyAlgorithm().getParameters()).getEncoded();
        CertifiedKey pair = CertifiedKey.parse(Files.readString(issued.certificate()), pem("EC PRIVATE KEY", sec1));
        assertTrue(pair.matches());
    }

    @Test
    void readsAPkcs1RsaKey() throws Exception {
        KeyPairGenerator rsa = KeyPairGenerator.getInstance("RSA");
        rsa.initialize(2048);
        PrivateKey key = rsa.generateKeyPair().getPrivate();
        var issued = ca.issue(folder.resolve("cert.pem"), folder.resolve("key.pem"), "mesh.example.com");
        CertifiedKey pair = CertifiedKey.parse(Files.readString(issued.certificate()),
                pem("RSA PRIVATE KEY", inner(key)));
        assertEquals("RSA", pair.key().getAlgorithm());
        assertFalse(pair.matches(), "this RSA key is not the certificate's");
    }

    @Test
    void anEncryptedKeyIsRefusedWithAReason() throws Exception {
        var issued = ca.issue(folder.resolve("cert.pem"), folder.resolve("key.pem"), "mesh.example.com");
        IOException e = assertThrows(IOException.class, () -> CertifiedKey.parse(
                Files.readString(issued.certificate()), pem("ENCRYPTED PRIVATE KEY", new byte[] {1, 2, 3})));
        assertTrue(e.getMessage().contains("encrypted"), e.getMessage());
    }

    @Test
    void aFileWithoutCertificatesIsRefused() {
        IOException e = assertThrows(IOException.class, () -> CertifiedKey.parse("hello", "world"));
        assertTrue(e.getMessage().contains("no CERTIFICATE"), e.getMessage());
    }
}
