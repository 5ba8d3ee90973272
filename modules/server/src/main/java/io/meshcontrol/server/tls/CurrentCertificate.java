package io.meshcontrol.server.tls;

import java.net.Socket;
import java.security.Principal;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.function.Supplier;
import javax.net.ssl.ExtendedSSLSession;
import javax.net.ssl.SNIHostName;
import javax.net.ssl.SNIServerName;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLSession;
import javax.net.ssl.X509ExtendedKeyManager;

/**
 * A key manager that asks its source for the certificate at every handshake, so a renewed or reloaded certificate
 * serves the next connection while open ones keep theirs. A handshake that negotiated {@code acme-tls/1} for a host
 * with a TLS-ALPN-01 challenge under way is shown that challenge's certificate instead.
 */
final class CurrentCertificate extends X509ExtendedKeyManager {

    private static final String ALIAS = "current";

    private final Supplier<CertifiedKey> source;
    private final AcmeChallenges challenges;
    /** The pair the alias was chosen for: JSSE asks for the chain and the key right after choosing, on one thread. */
    private final ThreadLocal<CertifiedKey> chosen = new ThreadLocal<>();

    /** @param challenges the TLS-ALPN-01 answers, or null when no ACME client runs */
    CurrentCertificate(Supplier<CertifiedKey> source, AcmeChallenges challenges) {
        this.source = source;
        this.challenges = challenges;
    }

    @Override
    public String chooseEngineServerAlias(String keyType, Principal[] issuers, SSLEngine engine) {
        CertifiedKey pair = null;
        if (challenges != null && engine != null && AcmeChallenges.ACME_TLS.equals(engine.getHandshakeApplicationProtocol())) {
            pair = challenges.tlsAnswer(serverName(engine.getHandshakeSession())).orElse(null);
        }
        return choose(keyType, pair != null ? pair : source.get());
    }

    @Override
    public String chooseServerAlias(String keyType, Principal[] issuers, Socket socket) {
        return choose(keyType, source.get());
    }

    private String choose(String keyType, CertifiedKey pair) {
        chosen.set(pair);
        // JSSE asks per key type (EC, RSA, RSASSA-PSS); answer only for the type of the key we hold (Bouncy
        // Castle calls its EC keys ECDSA).
        String algorithm = pair.key().getAlgorithm().equals("ECDSA") ? "EC" : pair.key().getAlgorithm();
        return keyType.equals(algorithm) || (keyType.equals("RSASSA-PSS") && algorithm.equals("RSA")) ? ALIAS : null;
    }

    static String serverName(SSLSession session) {
        if (session instanceof ExtendedSSLSession extended) {
            for (SNIServerName name : extended.getRequestedServerNames()) {
                if (name instanceof SNIHostName host) {
                    return host.getAsciiName();
                }
            }
        }
        return null;
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
