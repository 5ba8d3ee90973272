package io.meshcontrol.server.tls;

import java.security.GeneralSecurityException;
import java.security.KeyManagementException;
import java.security.SecureRandom;
import java.util.function.Supplier;
import javax.net.ssl.KeyManager;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLContextSpi;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLServerSocketFactory;
import javax.net.ssl.SSLSessionContext;
import javax.net.ssl.SSLSocketFactory;
import javax.net.ssl.TrustManager;

/** The TLS context of an HTTPS listener whose certificate comes from a source that may change (files, ACME). */
public final class HttpsContext {

    private HttpsContext() {
    }

    /**
     * A server context presenting {@code source}'s current certificate at every handshake.
     *
     * @param challenges the TLS-ALPN-01 answers to show to validation handshakes, or null when no ACME client runs
     */
    public static SSLContext serving(Supplier<CertifiedKey> source, AcmeChallenges challenges) {
        SSLContext context;
        try {
            context = SSLContext.getInstance("TLS");
            context.init(new KeyManager[] {new CurrentCertificate(source, challenges)}, null, null);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot set up TLS: " + e.getMessage(), e);
        }
        return challenges == null ? context : new AlpnContext(context, challenges);
    }

    /**
     * The same context, whose engines agree to {@code acme-tls/1} when a client offers it for a host with a challenge
     * under way; the listener negotiates no other ALPN protocol (HTTP/1.1 is what clients fall back to).
     */
    private static final class AlpnContext extends SSLContext {
        AlpnContext(SSLContext real, AcmeChallenges challenges) {
            super(new Spi(real, challenges), real.getProvider(), real.getProtocol());
        }
    }

    private static final class Spi extends SSLContextSpi {
        private final SSLContext real;
        private final AcmeChallenges challenges;

        Spi(SSLContext real, AcmeChallenges challenges) {
            this.real = real;
            this.challenges = challenges;
        }

        private SSLEngine selecting(SSLEngine engine) {
            // The server name is not known yet when ALPN is chosen; the key manager picks the challenge by it. ""
            // negotiates nothing, as without the selector (null would end the handshake with an alert).
            engine.setHandshakeApplicationProtocolSelector((e, offered) ->
                    offered.contains(AcmeChallenges.ACME_TLS) && challenges.tlsPending() ? AcmeChallenges.ACME_TLS : "");
            return engine;
        }

        @Override
        protected void engineInit(KeyManager[] km, TrustManager[] tm, SecureRandom sr) throws KeyManagementException {
            throw new KeyManagementException("already initialised");
        }

        @Override
        protected SSLSocketFactory engineGetSocketFactory() {
            return real.getSocketFactory();
        }

        @Override
        protected SSLServerSocketFactory engineGetServerSocketFactory() {
            return real.getServerSocketFactory();
        }

        @Override
        protected SSLEngine engineCreateSSLEngine() {
            return selecting(real.createSSLEngine());
        }

        @Override
        protected SSLEngine engineCreateSSLEngine(String host, int port) {
            return selecting(real.createSSLEngine(host, port));
        }

        @Override
        protected SSLSessionContext engineGetServerSessionContext() {
            return real.getServerSessionContext();
        }

        @Override
        protected SSLSessionContext engineGetClientSessionContext() {
            return real.getClientSessionContext();
        }
    }
}
