package io.meshcontrol.server.tls;

import java.math.BigInteger;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.SecureRandom;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/** A short-lived self-signed certificate, served while the real one is being obtained. */
final class SelfSigned {

    private SelfSigned() {
    }

    /**
     * A P-256 key of the JDK's own provider: the key manager matches its algorithm name ("EC") with what JSSE asks
     * for, where Bouncy Castle's keys (acme4j's KeyPairUtils) say "ECDSA".
     */
    static KeyPair newKey() {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("EC", "SunEC");
            generator.initialize(new ECGenParameterSpec("secp256r1"));
            return generator.generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot make an EC key: " + e.getMessage(), e);
        }
    }

    static CertifiedKey forHost(String host, Instant now) {
        try {
            KeyPair key = newKey();
            X500Name name = new X500Name("CN=" + host.replaceAll("[,=+<>#;\"\\\\]", ""));
            JcaX509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(name,
                    new BigInteger(64, new SecureRandom()), Date.from(now.minus(Duration.ofMinutes(5))),
                    Date.from(now.plus(Duration.ofDays(7))), name, key.getPublic());
            builder.addExtension(Extension.subjectAlternativeName, false,
                    new GeneralNames(new GeneralName(GeneralName.dNSName, host)));
            return new CertifiedKey(key.getPrivate(), List.of(new JcaX509CertificateConverter().getCertificate(
                    builder.build(new JcaContentSignerBuilder("SHA256withECDSA").build(key.getPrivate())))));
        } catch (GeneralSecurityException | OperatorCreationException | java.io.IOException e) {
            throw new IllegalStateException("cannot make a placeholder certificate: " + e.getMessage(), e);
        }
    }
}
