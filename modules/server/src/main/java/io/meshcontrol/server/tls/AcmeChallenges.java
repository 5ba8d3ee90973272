package io.meshcontrol.server.tls;

import io.meshcontrol.core.model.FetchedDocument;
import io.meshcontrol.core.state.FetchedDocuments;
import io.undertow.server.HttpHandler;
import io.undertow.server.HttpServerExchange;
import io.undertow.util.Headers;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * The answers to the ACME challenges under way: for HTTP-01 the key authorization served at
 * {@code /.well-known/acme-challenge/<token>}, for TLS-ALPN-01 the certificate shown to a handshake that asks for
 * {@code acme-tls/1} with the host name (RFC 8737). The ACME client puts an answer here before it asks the CA to
 * validate, and takes it away afterwards.
 * <p>
 * Each answer is also stored for the other instances sharing the database ({@link FetchedDocuments}), which serve it
 * too: behind a load balancer the CA's validation may reach any of them. An HTTP-01 token not known here is looked
 * up there; a TLS-ALPN-01 certificate is followed as the other instance stores it (the handshake cannot wait for the
 * database), so its client gives the others time to see it before the CA validates.
 */
public final class AcmeChallenges {

    private static final System.Logger LOG = System.getLogger(AcmeChallenges.class.getName());
    private static final String HTTP_DOCUMENT = "acme-challenge-http:";
    private static final String TLS_DOCUMENT = "acme-challenge-tls:";
    /** What an ACME token is made of (base64url, RFC 8555 section 8.1), before the database is asked for one. */
    private static final Pattern TOKEN = Pattern.compile("[A-Za-z0-9_-]{1,256}");

    /** The ALPN protocol of TLS-ALPN-01 validation handshakes. */
    static final String ACME_TLS = "acme-tls/1";
    static final String HTTP_PATH = "/.well-known/acme-challenge/";

    private final Map<String, String> httpAnswers = new ConcurrentHashMap<>();
    private final Map<String, CertifiedKey> tlsAnswers = new ConcurrentHashMap<>();
    private final FetchedDocuments documents;

    /** @param documents where the answers are stored for the other instances, and theirs are found */
    AcmeChallenges(FetchedDocuments documents) {
        this.documents = documents;
        documents.onFetchedElsewhere(TLS_DOCUMENT, (name, stored) -> {
            String host = name.substring(TLS_DOCUMENT.length());
            stored.ifPresentOrElse(d -> {
                try {
                    tlsAnswers.put(host, CertifiedKey.parse(d.body()));
                } catch (IOException e) {
                    LOG.log(System.Logger.Level.WARNING, "another instance's TLS-ALPN-01 answer for " + host
                            + " cannot be read: " + e.getMessage());
                }
            }, () -> tlsAnswers.remove(host));
        });
    }

    void answerHttp(String token, String keyAuthorization) {
        httpAnswers.put(token, keyAuthorization);
        documents.save(HTTP_DOCUMENT + token, keyAuthorization);
    }

    void answerTls(String host, CertifiedKey certificate) {
        String name = host.toLowerCase(Locale.ROOT);
        tlsAnswers.put(name, certificate);
        documents.save(TLS_DOCUMENT + name, certificate.pem());
    }

    void withdraw(String tokenOrHost) {
        if (httpAnswers.remove(tokenOrHost) != null) {
            documents.delete(HTTP_DOCUMENT + tokenOrHost);
        }
        String host = tokenOrHost.toLowerCase(Locale.ROOT);
        if (tlsAnswers.remove(host) != null) {
            documents.delete(TLS_DOCUMENT + host);
        }
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
     * The HTTP-01 listener's handler: the key authorization for a token known here or stored by another instance, 404
     * for anything else (the listener serves nothing but the challenges).
     */
    public HttpHandler httpHandler() {
        return new HttpHandler() {
            @Override
            public void handleRequest(HttpServerExchange exchange) {
                String path = exchange.getRequestPath();
                String token = path.startsWith(HTTP_PATH) ? path.substring(HTTP_PATH.length()) : "";
                String answer = httpAnswers.get(token);
                if (answer == null && TOKEN.matcher(token).matches()) {
                    if (exchange.isInIoThread()) {
                        exchange.dispatch(this); // the database is read off the I/O thread
                        return;
                    }
                    answer = documents.read(HTTP_DOCUMENT + token).map(FetchedDocument::body).orElse(null);
                }
                answerHttp(exchange, answer);
            }
        };
    }

    /** The key authorization, or 404 for anything else (the listener serves nothing but the challenges). */
    private static void answerHttp(HttpServerExchange exchange, String answer) {
        if (answer == null || !exchange.getRequestMethod().toString().equals("GET")) {
            exchange.setStatusCode(404);
            exchange.endExchange();
            return;
        }
        exchange.getResponseHeaders().put(Headers.CONTENT_TYPE, "text/plain");
        exchange.getResponseSender().send(answer, StandardCharsets.US_ASCII);
    }
}
