package io.meshcontrol.relay.tls;

import io.meshcontrol.core.OwnerOnlyFiles;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.math.BigInteger;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.MessageDigest;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.security.spec.PKCS8EncodedKeySpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;
import java.util.HexFormat;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import org.bouncycastle.asn1.ASN1EncodableVector;
import org.bouncycastle.asn1.ASN1Integer;
import org.bouncycastle.asn1.DERBitString;
import org.bouncycastle.asn1.DERSequence;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.AlgorithmIdentifier;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.ExtensionsGenerator;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.SubjectPublicKeyInfo;
import org.bouncycastle.asn1.x509.TBSCertificate;
import org.bouncycastle.asn1.x509.Time;
import org.bouncycastle.asn1.x509.V3TBSCertificateGenerator;
import org.bouncycastle.asn1.x9.X9ObjectIdentifiers;

/**
 * The self-signed certificate of the embedded relay's TLS port, for servers reached over plain HTTP. Clients do not
 * trust it through a CA: the DERP map pins it by the SHA-256 of its DER bytes ({@code CertName:
 * "sha256-raw:<hex>"}), so it is kept in a file and reused across restarts, and the pin stays the same. It names the
 * relay's host (a DNS name or an IP address), which pinning clients check too; a file naming another host, or close to
 * expiry, is replaced.
 *
 * <p>The file holds the PKCS#8 private key (EC P-256) and the certificate, both PEM.
 */
public final class RelayCertificate {

    /** The prefix of a pinned {@code CertName} (Tailscale 1.82 and later). */
    public static final String PIN_PREFIX = "sha256-raw:";
    private static final Duration LIFETIME = Duration.ofDays(3650);
    private static final Duration RENEW_BEFORE = Duration.ofDays(30);
    private static final Pattern PEM = Pattern.compile(
            "-----BEGIN ([A-Z ]+)-----([A-Za-z0-9+/=\\s]+)-----END \\1-----");

    private final PrivateKey key;
    private final X509Certificate certificate;

    private RelayCertificate(PrivateKey key, X509Certificate certificate) {
        this.key = key;
        this.certificate = certificate;
    }

    /**
     * The certificate in {@code file} when it names {@code host} and is not about to expire; else a new one, written
     * to {@code file} (owner-readable only) before it is returned.
     */
    public static RelayCertificate loadOrCreate(Path file, String host, Instant now) throws IOException {
        if (Files.exists(file)) {
            RelayCertificate existing = read(file);
            if (existing.names(host) && existing.certificate.getNotAfter().toInstant().isAfter(now.plus(RENEW_BEFORE))) {
                return existing;
            }
        }
        RelayCertificate created = create(host, now);
        created.write(file);
        return created;
    }

    /** {@code sha256-raw:} and the lower-case hex SHA-256 of the certificate's DER bytes. */
    public String pin() {
        try {
            return PIN_PREFIX + HexFormat.of().formatHex(
                    MessageDigest.getInstance("SHA-256").digest(certificate.getEncoded()));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    public X509Certificate certificate() {
        return certificate;
    }

    /** A TLS server context presenting this certificate. */
    public SSLContext serverContext() {
        try {
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(null, null);
            char[] password = new char[0];
            store.setKeyEntry("relay", key, password, new java.security.cert.Certificate[] {certificate});
            KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            keys.init(store, password);
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(keys.getKeyManagers(), null, null);
            return context;
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalStateException("cannot set up TLS for the relay: " + e.getMessage(), e);
        }
    }

    private boolean names(String host) {
        try {
            for (List<?> name : certificate.getSubjectAlternativeNames() == null ? List.<List<?>>of()
                    : certificate.getSubjectAlternativeNames()) {
                if (host.equalsIgnoreCase(String.valueOf(name.get(1)))) {
                    return true;
                }
            }
            return false;
        } catch (CertificateException e) {
            return false;
        }
    }

    private static RelayCertificate create(String host, Instant now) {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
            generator.initialize(new ECGenParameterSpec("secp256r1"));
            KeyPair pair = generator.generateKeyPair();
            AlgorithmIdentifier algorithm = new AlgorithmIdentifier(X9ObjectIdentifiers.ecdsa_with_SHA256);
            X500Name subject = new X500Name("CN=" + host.replaceAll("[,=+<>#;\"\\\\]", ""));
            V3TBSCertificateGenerator tbs = new V3TBSCertificateGenerator();
            tbs.setSerialNumber(new ASN1Integer(new BigInteger(64, new SecureRandom())));
            tbs.setIssuer(subject);
            tbs.setSubject(subject);
            // A little in the past, for clients whose clocks run behind.
            tbs.setStartDate(new Time(Date.from(now.minus(Duration.ofDays(1)))));
            tbs.setEndDate(new Time(Date.from(now.plus(LIFETIME))));
            tbs.setSignature(algorithm);
            tbs.setSubjectPublicKeyInfo(SubjectPublicKeyInfo.getInstance(pair.getPublic().getEncoded()));
            ExtensionsGenerator extensions = new ExtensionsGenerator();
            extensions.addExtension(Extension.subjectAlternativeName, false, new GeneralNames(subjectName(host)));
            tbs.setExtensions(extensions.generate());
            TBSCertificate body = tbs.generateTBSCertificate();
            Signature signer = Signature.getInstance("SHA256withECDSA");
            signer.initSign(pair.getPrivate());
            signer.update(body.getEncoded("DER"));
            ASN1EncodableVector whole = new ASN1EncodableVector();
            whole.add(body);
            whole.add(algorithm);
            whole.add(new DERBitString(signer.sign()));
            byte[] der = new DERSequence(whole).getEncoded("DER");
            return new RelayCertificate(pair.getPrivate(), parse(der));
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalStateException("cannot create the relay's TLS certificate: " + e.getMessage(), e);
        }
    }

    /** An IP address for a literal (Go checks those against IP SANs), a DNS name otherwise. */
    private static GeneralName subjectName(String host) {
        String bare = host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
        boolean literal = bare.matches("[0-9.]+") || bare.contains(":");
        return literal ? new GeneralName(GeneralName.iPAddress, bare) : new GeneralName(GeneralName.dNSName, bare);
    }

    private static X509Certificate parse(byte[] der) throws CertificateException {
        return (X509Certificate) CertificateFactory.getInstance("X.509")
                .generateCertificate(new ByteArrayInputStream(der));
    }

    private static RelayCertificate read(Path file) throws IOException {
        String text = Files.readString(file, StandardCharsets.US_ASCII);
        byte[] keyBytes = null;
        byte[] certBytes = null;
        Matcher m = PEM.matcher(text);
        while (m.find()) {
            byte[] bytes = Base64.getMimeDecoder().decode(m.group(2));
            switch (m.group(1)) {
                case "PRIVATE KEY" -> keyBytes = bytes;
                case "CERTIFICATE" -> certBytes = bytes;
                default -> { }
            }
        }
        if (keyBytes == null || certBytes == null) {
            throw new IOException(file + " must hold a PRIVATE KEY and a CERTIFICATE (PEM)");
        }
        try {
            return new RelayCertificate(KeyFactory.getInstance("EC").generatePrivate(new PKCS8EncodedKeySpec(keyBytes)),
                    parse(certBytes));
        } catch (GeneralSecurityException e) {
            throw new IOException("cannot read " + file + ": " + e.getMessage(), e);
        }
    }

    private void write(Path file) throws IOException {
        String text;
        try {
            text = pem("PRIVATE KEY", key.getEncoded()) + pem("CERTIFICATE", certificate.getEncoded());
        } catch (GeneralSecurityException e) {
            throw new IOException(e);
        }
        OwnerOnlyFiles.write(file, text.getBytes(StandardCharsets.US_ASCII));
    }

    private static String pem(String type, byte[] der) {
        return "-----BEGIN " + type + "-----\n" + Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(der)
                + "\n-----END " + type + "-----\n";
    }
}
