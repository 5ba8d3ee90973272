package io.meshcontrol.server.tls;

import io.undertow.server.HttpHandler;
import io.undertow.util.Headers;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The answers to the ACME challenges under way: for HTTP-01 the key authorization served at
 * {@code /.well-known/acme-challenge/<token>}, for TLS-ALPN-01 the certificate shown to a handshake that asks for
 * {@code acme-tls/1} with the host name (RFC 8737). The ACME client puts an answer here before it asks the CA to
 * validate, and takes it away afterwards.
 */
public final class AcmeChallenges {

    /** The ALPN protocol of TLS-ALPN-01 validation handshakes. */
    static final String ACME_TLS = "acme-tls/1";
    static final String HTTP_PATH = "/.well-known/acme-challenge/";

    private final Map<String, String> httpAnswers = new ConcurrentHashMap<>();
    private final Map<String, CertifiedKey> tlsAnswers = new ConcurrentHashMap<>();

    void answerHttp(String token, String keyAuthorization) {
        httpAnswers.put(token, keyAuthorization);
    }

    void answerTls(String host, CertifiedKey certificate) {
        tlsAnswers.put(host.toLowerCase(Locale.ROOT), certificate);
    }

    void withdraw(String tokenOrHost) {
        httpAnswers.remove(tokenOrHost);
        tlsAnswers.remove(tokenOrHost.toLowerCase(Locale.ROOT));
    }

    /** The validation certificate for {@code host}, while its TLS-ALPN-01 challenge is under way. */
    Optional<CertifiedKey> tlsAnswer(String host) {
        return host == null ? Optional.empty() : Optional.ofNullable(tlsAnswers.get(host.toLowerCase(Locale.ROOT)));
    }

    /** Whether any TLS-ALPN-01 challenge is under way. */
    boolean tlsPending() {
        return !tlsAnswers.isEmpty();
    }

    /**
     * The HTTP-01 listener's handler: the key authorization for a known token, 404 for anything else (the listener
     * serves nothing but the challenges).
     */
    public HttpHandler httpHandler() {
        return exchange -> {
            String path = exchange.getRequestPath();
            String answer = path.startsWith(HTTP_PATH) ? httpAnswers.get(path.substring(HTTP_PATH.length())) : null;
            if (answer == null || !exchange.getRequestMethod().toString().equals("GET")) {
                exchange.setStatusCode(404);
                exchange.endExchange();
                return;
            }
            exchange.getResponseHeaders().put(Headers.CONTENT_TYPE, "text/plain");
            exchange.getResponseSender().send(answer, StandardCharsets.US_ASCII);
        };
    }
}
