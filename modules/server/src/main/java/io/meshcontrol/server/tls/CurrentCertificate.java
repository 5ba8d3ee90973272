package io.meshcontrol.server.tls;

import java.net.Socket;
import java.security.Principal;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.function.Supplier;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedKeyManager;

/**
 * A key manager that asks its source for the certificate at every handshake, so a renewed or reloaded certificate
 * serves the next connection while open ones keep theirs. It has one alias; what it stands for changes.
 */
final class CurrentCertificate extends X509ExtendedKeyManager {

    private static final String ALIAS = "current";

    private final Supplier<CertifiedKey> source;
    /** The pair the alias was chosen for, so a handshake sees one pair even if the source changes during it. */
    private final ThreadLocal<CertifiedKey> chosen = new ThreadLocal<>();

    CurrentCertificate(Supplier<CertifiedKey> source) {
        this.source = source;
    }

    @Override
    public String chooseEngineServerAlias(String keyType, Principal[] issuers, SSLEngine engine) {
        return choose(keyType);
    }

    @Override
    public String chooseServerAlias(String keyType, Principal[] issuers, Socket socket) {
        return choose(keyType);
    }

    private String choose(String keyType) {
        CertifiedKey pair = source.get();
        chosen.set(pair);
        // JSSE asks per key type (EC, RSA, RSASSA-PSS); answer only for the type of the key we hold.
        String algorithm = pair.key().getAlgorithm();
        return keyType.equals(algorithm) || (keyType.equals("RSASSA-PSS") && algorithm.equals("RSA")) ? ALIAS : null;
    }

    private CertifiedKey pair() {
        CertifiedKey pair = chosen.get();
        return pair != null ? pair : source.get();
    }

    @Override
    public X509Certificate[] getCertificateChain(String alias) {
        return ALIAS.equals(alias) ? pair().chain().toArray(X509Certificate[]::new) : null;
    }

    @Override
    public PrivateKey getPrivateKey(String alias) {
        return ALIAS.equals(alias) ? pair().key() : null;
    }

    @Override
    public String[] getServerAliases(String keyType, Principal[] issuers) {
        return new String[] {ALIAS};
    }

    @Override
    public String[] getClientAliases(String keyType, Principal[] issuers) {
        return null;
    }

    @Override
    public String chooseClientAlias(String[] keyType, Principal[] issuers, Socket socket) {
        return null;
    }
}
