package io.meshcontrol.server.tls;

import io.meshcontrol.core.OwnerOnlyFiles;
import io.meshcontrol.core.config.MeshConfig;
import io.meshcontrol.core.model.FetchedDocument;
import io.meshcontrol.core.state.FetchedDocuments;
import java.io.IOException;
import java.io.StringReader;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.lang.System.Logger.Level;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.Security;
import java.security.cert.CertificateParsingException;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Supplier;
import org.bouncycastle.jce.provider.BouncyCastleProvider;
import org.shredzone.acme4j.Account;
import org.shredzone.acme4j.AccountBuilder;
import org.shredzone.acme4j.Authorization;
import org.shredzone.acme4j.Order;
import org.shredzone.acme4j.Session;
import org.shredzone.acme4j.Status;
import org.shredzone.acme4j.challenge.Challenge;
import org.shredzone.acme4j.challenge.Http01Challenge;
import org.shredzone.acme4j.challenge.TlsAlpn01Challenge;
import org.shredzone.acme4j.exception.AcmeException;
import org.shredzone.acme4j.util.KeyPairUtils;

/**
 * The certificate for {@code tls_letsencrypt_hostname}, obtained and renewed from the ACME CA at {@code acme_url}
 * (acme4j) by HTTP-01 or TLS-ALPN-01. The account key and the certificate with its key are stored in the database
 * for every instance ({@link FetchedDocuments}) and kept in owner-only files in {@code tls_letsencrypt_cache_dir}, so
 * a restart serves the certificate it has and asks the CA only when it is due. Where several instances share the
 * database, the one holding the singleton lease asks the CA ({@link Https}) and the others serve what it stored.
 *
 * <p>Until the first certificate arrives, handshakes see a self-signed placeholder for the host name (clients refuse
 * it; the TLS-ALPN-01 validation needs the listener up already).
 */
public final class AcmeCertificate implements Supplier<CertifiedKey> {

    private static final System.Logger LOG = System.getLogger(AcmeCertificate.class.getName());
    static final String ACCOUNT_FILE = "acme-account.pem";
    static final String ACCOUNT_DOCUMENT = "acme-account";
    private static final String CERTIFICATE_DOCUMENT = "acme-certificate:";
    private static final Duration VALIDATION_TIMEOUT = Duration.ofMinutes(2);

    private final MeshConfig.LetsEncrypt config;
    private final String host;
    private final AcmeChallenges challenges;
    private final Clock clock;
    private final CertifiedKey placeholder;
    private final FetchedDocuments documents;
    private final Duration propagation;
    private volatile CertifiedKey current;

    /**
     * @param documents where the account and the certificate are stored for every instance
     * @param propagation how long another instance may take to follow a stored TLS-ALPN-01 answer (zero when none
     *                    shares the database): the CA is asked to validate only after it
     */
    AcmeCertificate(MeshConfig.LetsEncrypt config, AcmeChallenges challenges, Clock clock, FetchedDocuments documents,
            Duration propagation) {
        // acme4j reads PEM keys and builds its CSR through the Bouncy Castle provider, by name; appended last, so
        // the JDK's providers stay the default for everything else.
        synchronized (Security.class) {
            if (Security.getProvider(BouncyCastleProvider.PROVIDER_NAME) == null) {
                Security.addProvider(new BouncyCastleProvider());
            }
        }
        this.config = config;
        this.host = config.hostname().orElseThrow().toLowerCase(Locale.ROOT);
        this.challenges = challenges;
        this.clock = clock;
        this.placeholder = SelfSigned.forHost(host, clock.instant());
        this.documents = documents;
        this.propagation = propagation;
        this.current = readShared().or(this::readStored).orElse(null);
        documents.onFetchedElsewhere(certificateDocument(),
                (name, stored) -> stored.flatMap(this::usable).ifPresent(this::adopt));
    }

    private String certificateDocument() {
        return CERTIFICATE_DOCUMENT + host;
    }

    /** The certificate another instance obtained: served here too, and kept in this instance's files. */
    private void adopt(CertifiedKey pair) {
        current = pair;
        try {
            writeFiles(pair);
        } catch (IOException | RuntimeException e) {
            LOG.log(Level.WARNING, "cannot keep the certificate for " + host + " in " + config.cacheDir() + ": "
                    + e.getMessage());
        }
        LOG.log(Level.INFO, "serving the certificate for " + host + " another instance obtained, valid until "
                + pair.notAfter());
    }

    private void writeFiles(CertifiedKey pair) throws IOException {
        OwnerOnlyFiles.createFolders(config.cacheDir());
        OwnerOnlyFiles.write(keyFile(), pair.keyPem().getBytes(StandardCharsets.US_ASCII));
        OwnerOnlyFiles.write(certificateFile(), pair.chainPem().getBytes(StandardCharsets.US_ASCII));
    }

    /** The certificate stored in the database, if it is one for this host with its key. */
    private Optional<CertifiedKey> readShared() {
        return documents.read(certificateDocument()).flatMap(this::usable);
    }

    private Optional<CertifiedKey> usable(FetchedDocument stored) {
        try {
            CertifiedKey pair = CertifiedKey.parse(stored.body());
            return pair.matches() && names(pair.leaf(), host) ? Optional.of(pair) : Optional.empty();
        } catch (IOException e) {
            LOG.log(Level.WARNING, "the stored certificate for " + host + " cannot be used (" + e.getMessage() + ")");
            return Optional.empty();
        }
    }

    @Override
    public CertifiedKey get() {
        CertifiedKey pair = current;
        return pair != null ? pair : placeholder;
    }

    /** The certificate obtained from the CA, if any yet. */
    public Optional<CertifiedKey> obtained() {
        return Optional.ofNullable(current);
    }

    /**
     * Whether the certificate in service should be replaced: none yet, or two thirds of its lifetime gone (30 days
     * before the end of a 90-day certificate, as Let's Encrypt advises), or naming another host.
     */
    boolean due(Instant now) {
        CertifiedKey pair = current;
        if (pair == null || !names(pair.leaf(), host)) {
            return true;
        }
        Instant start = pair.leaf().getNotBefore().toInstant();
        Duration lifetime = Duration.between(start, pair.notAfter());
        return !now.isBefore(start.plus(lifetime.multipliedBy(2).dividedBy(3)));
    }

    /** Obtains a new certificate when {@link #due}; throws what the CA or the validation said. */
    void renewIfDue() throws AcmeException, IOException, InterruptedException {
        if (!due(clock.instant())) {
            return;
        }
        // Another instance may have renewed it moments ago (the lease moved meanwhile).
        Optional<CertifiedKey> shared = readShared().filter(pair -> current == null
                || pair.notAfter().isAfter(current.notAfter()));
        if (shared.isPresent()) {
            adopt(shared.get());
            if (!due(clock.instant())) {
                return;
            }
        }
        LOG.log(Level.INFO, "obtaining a certificate for " + host + " from " + config.acmeUrl() + " ("
                + config.challengeType().configName() + ")");
        Session session = new Session(URI.create(config.acmeUrl()));
        AccountBuilder account = new AccountBuilder().agreeToTermsOfService().useKeyPair(accountKey());
        if (!config.acmeEmail().isBlank()) {
            account.addEmail(config.acmeEmail());
        }
        Account login = account.create(session);
        Order order = login.newOrder().domain(host).create();
        for (Authorization authorization : order.getAuthorizations()) {
            if (authorization.getStatus() != Status.VALID) {
                validate(authorization);
            }
        }
        KeyPair domainKey = SelfSigned.newKey();
        order.execute(domainKey);
        Status status = order.waitForCompletion(VALIDATION_TIMEOUT);
        if (status != Status.VALID) {
            throw new AcmeException("the order for " + host + " ended " + status
                    + order.getError().map(problem -> ": " + problem).orElse(""));
        }
        List<X509Certificate> chain = order.getCertificate().getCertificateChain();
        CertifiedKey pair = new CertifiedKey(domainKey.getPrivate(), chain);
        writeFiles(pair);
        documents.save(certificateDocument(), pair.pem());
        current = pair;
        LOG.log(Level.INFO, "certificate for " + host + " obtained, valid until " + pair.notAfter());
    }

    private void validate(Authorization authorization) throws AcmeException, InterruptedException {
        String name = authorization.getIdentifier().getDomain();
        Challenge challenge;
        String answerKey;
        if (config.challengeType() == MeshConfig.LetsEncrypt.Challenge.TLS_ALPN_01) {
            TlsAlpn01Challenge tls = authorization.findChallenge(TlsAlpn01Challenge.class).orElseThrow(
                    () -> new AcmeException("the CA offers no TLS-ALPN-01 challenge for " + name));
            // acme4j signs the validation certificate with SHA256withRSA whatever the key: an RSA key it is.
            KeyPair key = KeyPairUtils.createKeyPair(2048);
            challenges.answerTls(name, new CertifiedKey(key.getPrivate(),
                    List.of(tls.createCertificate(key, authorization.getIdentifier()))));
            challenge = tls;
            answerKey = name;
        } else {
            Http01Challenge http = authorization.findChallenge(Http01Challenge.class).orElseThrow(
                    () -> new AcmeException("the CA offers no HTTP-01 challenge for " + name));
            challenges.answerHttp(http.getToken(), http.getAuthorization());
            challenge = http;
            answerKey = http.getToken();
        }
        try {
            if (challenge instanceof TlsAlpn01Challenge) {
                Thread.sleep(propagation.toMillis()); // the other instances' handshakes show it once they follow it
            }
            challenge.trigger();
            Status status = challenge.waitForCompletion(VALIDATION_TIMEOUT);
            if (status != Status.VALID) {
                throw new AcmeException("the " + challenge.getType() + " validation of " + name + " ended " + status
                        + challenge.getError().map(problem -> ": " + problem).orElse(""));
            }
        } finally {
            challenges.withdraw(answerKey);
        }
    }

    /** The ACME account's key: the network's (stored), else this instance's file from before, else a new one. */
    private KeyPair accountKey() throws IOException {
        Path file = config.cacheDir().resolve(ACCOUNT_FILE);
        Optional<String> stored = documents.read(ACCOUNT_DOCUMENT).map(FetchedDocument::body);
        String pem = stored.isPresent() ? stored.get()
                : Files.exists(file) ? Files.readString(file, StandardCharsets.US_ASCII) : null;
        if (pem == null) {
            StringWriter text = new StringWriter();
            KeyPairUtils.writeKeyPair(KeyPairUtils.createECKeyPair("secp256r1"), text);
            pem = text.toString();
        }
        if (stored.isEmpty()) {
            documents.save(ACCOUNT_DOCUMENT, pem);
        }
        OwnerOnlyFiles.createFolders(config.cacheDir());
        OwnerOnlyFiles.write(file, pem.getBytes(StandardCharsets.US_ASCII));
        return KeyPairUtils.readKeyPair(new StringReader(pem));
    }

    Path certificateFile() {
        return config.cacheDir().resolve(host + ".crt.pem");
    }

    Path keyFile() {
        return config.cacheDir().resolve(host + ".key.pem");
    }

    private Optional<CertifiedKey> readStored() {
        if (!Files.exists(certificateFile()) || !Files.exists(keyFile())) {
            return Optional.empty();
        }
        try {
            CertifiedKey pair = CertifiedKey.parse(Files.readString(certificateFile(), StandardCharsets.US_ASCII),
                    Files.readString(keyFile(), StandardCharsets.US_ASCII));
            return pair.matches() ? Optional.of(pair) : Optional.empty();
        } catch (IOException e) {
            LOG.log(Level.WARNING, "the stored certificate for " + host + " cannot be used (" + e.getMessage()
                    + "); a new one will be obtained");
            return Optional.empty();
        } catch (RuntimeException e) {
            throw new UncheckedIOException(new IOException(e));
        }
    }

    private static boolean names(X509Certificate certificate, String host) {
        try {
            var names = certificate.getSubjectAlternativeNames();
            return names != null && names.stream().anyMatch(name -> host.equalsIgnoreCase(String.valueOf(name.get(1))));
        } catch (CertificateParsingException e) {
            return false;
        }
    }
}
