package io.meshcontrol.server.tls;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.bouncycastle.asn1.ASN1Primitive;
import org.bouncycastle.asn1.DERNull;
import org.bouncycastle.asn1.pkcs.PKCSObjectIdentifiers;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.asn1.sec.ECPrivateKey;
import org.bouncycastle.asn1.x509.AlgorithmIdentifier;
import org.bouncycastle.asn1.x9.X9ObjectIdentifiers;

/**
 * A private key and the certificate chain that goes with it, leaf first: what an HTTPS listener presents.
 *
 * <p>Read from PEM as certificate tools write it: the chain as {@code CERTIFICATE} blocks, the key as PKCS#8
 * ({@code PRIVATE KEY}), PKCS#1 ({@code RSA PRIVATE KEY}) or SEC 1 ({@code EC PRIVATE KEY}). Encrypted keys are
 * refused: the server has no one to ask for a passphrase.
 */
public record CertifiedKey(PrivateKey key, List<X509Certificate> chain) {

    private static final Pattern PEM = Pattern.compile(
            "-----BEGIN ([A-Z0-9 ]+)-----([A-Za-z0-9+/=\\s]*)-----END \\1-----");

    public CertifiedKey {
        chain = List.copyOf(chain);
        if (chain.isEmpty()) {
            throw new IllegalArgumentException("a certified key needs at least one certificate");
        }
    }

    public X509Certificate leaf() {
        return chain.getFirst();
    }

    public Instant notAfter() {
        return leaf().getNotAfter().toInstant();
    }

    /** Whether the leaf certificate is for this key (a pair replaced one file at a time is not, for a moment). */
    public boolean matches() {
        return signs(key, leaf().getPublicKey());
    }

    /**
     * The chain in {@code certificates} and the key in {@code key}, both PEM text.
     *
     * @throws IOException naming what is missing or unreadable
     */
    public static CertifiedKey parse(String certificates, String key) throws IOException {
        List<X509Certificate> chain = new ArrayList<>();
        for (Block block : blocks(certificates)) {
            if (block.type().equals("CERTIFICATE")) {
                chain.add(certificate(block.der()));
            }
        }
        if (chain.isEmpty()) {
            throw new IOException("no CERTIFICATE block in the certificate file");
        }
        PrivateKey privateKey = null;
        try {
            privateKey = privateKey(key);
        } catch (RuntimeException e) {
            throw new IOException("the private key cannot be read: " + e.getMessage(), e);
        }
        if (privateKey == null) {
            throw new IOException("no PRIVATE KEY block in the key file");
        }
        return new CertifiedKey(privateKey, chain);
    }

    private static PrivateKey privateKey(String key) throws IOException {
        PrivateKey privateKey = null;
        for (Block block : blocks(key)) {
            privateKey = switch (block.type()) {
                case "PRIVATE KEY" -> pkcs8(block.der());
                case "RSA PRIVATE KEY" -> pkcs8(new PrivateKeyInfo(
                        new AlgorithmIdentifier(PKCSObjectIdentifiers.rsaEncryption, DERNull.INSTANCE),
                        ASN1Primitive.fromByteArray(block.der())).getEncoded());
                case "EC PRIVATE KEY" -> {
                    ECPrivateKey ec = ECPrivateKey.getInstance(block.der());
                    if (ec.getParametersObject() == null) {
                        throw new IOException("the EC PRIVATE KEY names no curve; write it with its parameters");
                    }
                    yield pkcs8(new PrivateKeyInfo(
                            new AlgorithmIdentifier(X9ObjectIdentifiers.id_ecPublicKey, ec.getParametersObject()),
                            ec).getEncoded());
                }
                case "ENCRYPTED PRIVATE KEY" -> throw new IOException("the private key is encrypted; store it "
                        + "unencrypted in an owner-only file");
                default -> privateKey;
            };
            if (privateKey != null) {
                break;
            }
        }
        return privateKey;
    }

    /** The chain as PEM, leaf first. */
    public String chainPem() {
        StringBuilder text = new StringBuilder();
        try {
            for (X509Certificate certificate : chain) {
                text.append(pem("CERTIFICATE", certificate.getEncoded()));
            }
        } catch (CertificateException e) {
            throw new IllegalStateException(e);
        }
        return text.toString();
    }

    /** The key as PKCS#8 PEM. */
    public String keyPem() {
        return pem("PRIVATE KEY", key.getEncoded());
    }

    /**
     * The chain and the key in one PEM text, as a certificate is stored for the other instances
     * ({@link #parse(String)}).
     */
    public String pem() {
        return chainPem() + keyPem();
    }

    /** A certificate stored as {@link #pem()} writes it. */
    public static CertifiedKey parse(String pem) throws IOException {
        return parse(pem, pem);
    }

    static String pem(String type, byte[] der) {
        return "-----BEGIN " + type + "-----\n" + Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(der)
                + "\n-----END " + type + "-----\n";
    }

    static List<X509Certificate> certificates(String pem) throws IOException {
        List<X509Certificate> chain = new ArrayList<>();
        for (Block block : blocks(pem)) {
            if (block.type().equals("CERTIFICATE")) {
                chain.add(certificate(block.der()));
            }
        }
        return chain;
    }

    private record Block(String type, byte[] der) {
    }

    private static List<Block> blocks(String text) throws IOException {
        List<Block> blocks = new ArrayList<>();
        Matcher m = PEM.matcher(text);
        while (m.find()) {
            try {
                blocks.add(new Block(m.group(1), Base64.getMimeDecoder().decode(m.group(2))));
            } catch (IllegalArgumentException e) {
                throw new IOException("a " + m.group(1) + " block is not valid base64", e);
            }
        }
        return blocks;
    }

    private static X509Certificate certificate(byte[] der) throws IOException {
        try {
            return (X509Certificate) CertificateFactory.getInstance("X.509")
                    .generateCertificate(new ByteArrayInputStream(der));
        } catch (CertificateException e) {
            throw new IOException("a CERTIFICATE block cannot be read: " + e.getMessage(), e);
        }
    }

    private static PrivateKey pkcs8(byte[] der) throws IOException {
        String algorithm;
        try {
            algorithm = PrivateKeyInfo.getInstance(der).getPrivateKeyAlgorithm().getAlgorithm()
                    .equals(PKCSObjectIdentifiers.rsaEncryption) ? "RSA" : "EC";
        } catch (RuntimeException e) {
            throw new IOException("the private key cannot be read", e);
        }
        try {
            return KeyFactory.getInstance(algorithm).generatePrivate(new PKCS8EncodedKeySpec(der));
        } catch (GeneralSecurityException e) {
            throw new IOException("the private key cannot be read (RSA and EC keys are supported): "
                    + e.getMessage(), e);
        }
    }

    /** Signs a few bytes with the key and checks them with the certificate's public key. */
    private static boolean signs(PrivateKey key, java.security.PublicKey publicKey) {
        try {
            String algorithm = key.getAlgorithm().equals("RSA") ? "SHA256withRSA" : "SHA256withECDSA";
            byte[] probe = "certified key".getBytes(StandardCharsets.US_ASCII);
            java.security.Signature signer = java.security.Signature.getInstance(algorithm);
            signer.initSign(key);
            signer.update(probe);
            byte[] signature = signer.sign();
            java.security.Signature verifier = java.security.Signature.getInstance(algorithm);
            verifier.initVerify(publicKey);
            verifier.update(probe);
            return verifier.verify(signature);
        } catch (GeneralSecurityException e) {
            return false;
        }
    }

    @Override
    public String toString() {
        return "CertifiedKey[" + leaf().getSubjectX500Principal() + ", until " + notAfter() + "]";
    }
}
