package io.meshcontrol.server.tls;

import java.security.GeneralSecurityException;
import java.util.function.Supplier;
import javax.net.ssl.KeyManager;
import javax.net.ssl.SSLContext;

/** The TLS context of an HTTPS listener whose certificate comes from a source that may change (files, ACME). */
public final class HttpsContext {

    private HttpsContext() {
    }

    /** A server context presenting {@code source}'s current certificate at every handshake. */
    public static SSLContext serving(Supplier<CertifiedKey> source) {
        try {
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(new KeyManager[] {new CurrentCertificate(source)}, null, null);
            return context;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot set up TLS: " + e.getMessage(), e);
        }
    }
}
