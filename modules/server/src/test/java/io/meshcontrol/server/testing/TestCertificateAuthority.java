package io.meshcontrol.server.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Date;
import java.util.List;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * A certificate authority for tests: a self-signed root and the server certificates it issues, written as the PEM
 * files an operator would hand the server ({@code tls_cert_path}, {@code tls_key_path}), and the root as a file a
 * client trusts ({@code SSL_CERT_FILE} for tailscaled) or as a client {@link SSLContext}.
 */
public final class TestCertificateAuthority {

    private final KeyPair key;
    private final X509Certificate root;

    /** A server certificate's two files. */
    public record Issued(Path certificate, Path key, X509Certificate leaf) {
    }

    private TestCertificateAuthority(KeyPair key, X509Certificate root) {
        this.key = key;
        this.root = root;
    }

    public static TestCertificateAuthority create(String name) {
        KeyPair key = ecKey();
        X500Name subject = new X500Name("CN=" + name);
        try {
            JcaX509v3CertificateBuilder builder = builder(subject, subject, key);
            builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(true));
            builder.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign));
            return new TestCertificateAuthority(key, sign(builder, key));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public X509Certificate root() {
        return root;
    }

    /** Writes the root certificate as PEM to {@code file}, for clients to trust. */
    public Path writeRoot(Path file) {
        write(file, pem("CERTIFICATE", encoded(root)));
        return file;
    }

    /**
     * Issues a certificate for {@code names} (DNS names, or IP addresses) and writes the chain (leaf, then root) to
     * {@code certificateFile} and the PKCS#8 key to {@code keyFile}.
     */
    public Issued issue(Path certificateFile, Path keyFile, String... names) {
        KeyPair leafKey = ecKey();
        try {
            JcaX509v3CertificateBuilder builder = builder(new X500Name(root.getSubjectX500Principal().getName()),
                    new X500Name("CN=" + names[0]), leafKey);
            List<GeneralName> alternatives = new ArrayList<>();
            for (String name : names) {
                alternatives.add(name.matches("[0-9.]+") || name.contains(":")
                        ? new GeneralName(GeneralName.iPAddress, InetAddress.getByName(name).getHostAddress())
                        : new GeneralName(GeneralName.dNSName, name));
            }
            builder.addExtension(Extension.subjectAlternativeName, false,
                    new GeneralNames(alternatives.toArray(GeneralName[]::new)));
            X509Certificate leaf = sign(builder, key);
            write(certificateFile, pem("CERTIFICATE", encoded(leaf)) + pem("CERTIFICATE", encoded(root)));
            write(keyFile, pem("PRIVATE KEY", leafKey.getPrivate().getEncoded()));
            return new Issued(certificateFile, keyFile, leaf);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A client context trusting this authority only. */
    public SSLContext clientContext() {
        try {
            KeyStore trust = KeyStore.getInstance("PKCS12");
            trust.load(null, null);
            trust.setCertificateEntry("root", root);
            TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            factory.init(trust);
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, factory.getTrustManagers(), null);
            return context;
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static JcaX509v3CertificateBuilder builder(X500Name issuer, X500Name subject, KeyPair subjectKey) {
        Instant now = Instant.now();
        return new JcaX509v3CertificateBuilder(issuer, new BigInteger(64, new SecureRandom()),
                Date.from(now.minus(Duration.ofHours(1))), Date.from(now.plus(Duration.ofDays(2))), subject,
                subjectKey.getPublic());
    }

    private static X509Certificate sign(JcaX509v3CertificateBuilder builder, KeyPair signer) {
        try {
            return new JcaX509CertificateConverter().getCertificate(
                    builder.build(new JcaContentSignerBuilder("SHA256withECDSA").build(signer.getPrivate())));
        } catch (GeneralSecurityException | org.bouncycastle.operator.OperatorCreationException e) {
            throw new IllegalStateException(e);
        }
    }

    private static KeyPair ecKey() {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
            generator.initialize(new ECGenParameterSpec("secp256r1"));
            return generator.generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private static byte[] encoded(X509Certificate certificate) {
        try {
            return certificate.getEncoded();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String pem(String type, byte[] der) {
        return "-----BEGIN " + type + "-----\n" + Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(der)
                + "\n-----END " + type + "-----\n";
    }

    /** Written beside and moved into place, as certbot and deploy scripts do, so a reader never sees half a file. */
    private static void write(Path file, String text) {
        try {
            Files.createDirectories(file.toAbsolutePath().getParent());
            Path temporary = file.resolveSibling(file.getFileName() + ".new");
            Files.writeString(temporary, text, StandardCharsets.US_ASCII);
            Files.move(temporary, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING,
                    java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
