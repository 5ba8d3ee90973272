package io.meshcontrol.server.tls;

import io.meshcontrol.core.config.HostPort;
import io.meshcontrol.core.config.MeshConfig;
import io.meshcontrol.core.state.FetchedDocuments;
import io.meshcontrol.core.state.Lease;
import io.meshcontrol.server.listener.ListenerLimits;
import io.meshcontrol.server.listener.PublicListener;
import java.io.UncheckedIOException;
import java.lang.System.Logger.Level;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import org.xnio.OptionMap;

/**
 * HTTPS on the main listener, from the configuration: a certificate from files ({@code tls_cert_path},
 * {@code tls_key_path}), one obtained by ACME ({@code tls_letsencrypt_hostname}), or none (plain HTTP, e.g. behind a
 * reverse proxy). With ACME it runs the HTTP-01 listener ({@code tls_letsencrypt_listen}) and the renewal schedule,
 * which asks the CA only where the singleton lease is held.
 */
public final class Https implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(Https.class.getName());
    /**
     * How often the certificate's age is checked (in memory) where the singleton lease is held; renewal itself starts
     * at two thirds of its lifetime. Often enough that an instance taking the lease over takes the renewal over soon.
     */
    static final Duration CHECK_EVERY = Duration.ofMinutes(1);
    /** How long the other instances sharing the database may take to follow a stored TLS-ALPN-01 answer. */
    private static final Duration PROPAGATION = Duration.ofSeconds(2);
    /** How soon a failed attempt is made again. */
    static final Duration RETRY_AFTER = Duration.ofMinutes(10);

    private final MeshConfig.Tls config;
    private final SSLContext context;
    private final AcmeCertificate acme;
    private final AcmeChallenges challenges;
    private final ListenerLimits limits;
    private final Lease lease;
    private ScheduledExecutorService schedule;
    /** Until when a failed attempt holds the next one back (the schedule's thread alone reads and writes it). */
    private long retryAtNanos = System.nanoTime();
    private PublicListener challengeListener;

    private Https(MeshConfig.Tls config, SSLContext context, AcmeCertificate acme, AcmeChallenges challenges,
            ListenerLimits limits, Lease lease) {
        this.lease = lease;
        this.config = config;
        this.context = context;
        this.acme = acme;
        this.challenges = challenges;
        this.limits = limits;
    }

    /**
     * Reads the certificate files (a pair that cannot be used stops the start) or the stored ACME certificate.
     *
     * @param documents where the ACME account, certificate and challenge answers are stored for every instance
     * @param lease the singleton lease: the instance holding it obtains and renews the ACME certificate
     * @param shared whether other instances share the database (they must see a challenge's answer before the CA
     *               validates it)
     */
    public static Https from(MeshConfig.Tls config, ListenerLimits limits, Clock clock, FetchedDocuments documents,
            Lease lease, boolean shared) {
        if (config.certPath().isPresent()) {
            return new Https(config, HttpsContext.serving(CertificateFiles.open(config.certPath().get(),
                    config.keyPath().orElseThrow()), null), null, null, limits, lease);
        }
        if (config.letsEncrypt().hostname().isPresent()) {
            AcmeChallenges challenges = new AcmeChallenges(documents);
            AcmeCertificate acme = new AcmeCertificate(config.letsEncrypt(), challenges, clock, documents,
                    shared ? PROPAGATION : Duration.ZERO);
            return new Https(config, HttpsContext.serving(acme, challenges), acme, challenges, limits, lease);
        }
        return new Https(config, null, null, null, limits, lease);
    }

    /** The main listener's TLS context, or null for plain HTTP. */
    public SSLContext context() {
        return context;
    }

    public boolean enabled() {
        return context != null;
    }

    /** The ACME certificate, when the server obtains its own. */
    public Optional<AcmeCertificate> acme() {
        return Optional.ofNullable(acme);
    }

    /**
     * Once the main listener is bound (TLS-ALPN-01 validation connects to it): opens the HTTP-01 listener if that is
     * the challenge, and, where the singleton lease is held, obtains the certificate now if it is due, then checks it
     * every {@link #CHECK_EVERY}.
     */
    public synchronized void start() {
        if (acme == null) {
            return;
        }
        MeshConfig.LetsEncrypt le = config.letsEncrypt();
        if (le.challengeType() == MeshConfig.LetsEncrypt.Challenge.HTTP_01) {
            HostPort listen = HostPort.parse(le.listen());
            try {
                challengeListener = PublicListener.start(new PublicListener.Setup(
                        listen.host().isEmpty() ? "::" : listen.host(), listen.port(), null,
                        challenges.httpHandler(), OptionMap.EMPTY, 1, limits));
            } catch (UncheckedIOException e) {
                throw new IllegalStateException("cannot listen for ACME HTTP-01 challenges on " + listen
                        + " (tls_letsencrypt_listen): " + e.getMessage(), e);
            }
        }
        schedule = Executors.newSingleThreadScheduledExecutor(Thread.ofPlatform().name("acme").daemon().factory());
        lease.whenTaken(schedule, this::renewNow); // at once where the lease is held already
        schedule.schedule(this::renew, CHECK_EVERY.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Checks now and again every {@link #CHECK_EVERY}: the schedule's one chain of turns. */
    private void renew() {
        renewNow();
        if (!schedule.isShutdown()) {
            schedule.schedule(this::renew, CHECK_EVERY.toMillis(), TimeUnit.MILLISECONDS);
        }
    }

    /** Obtains the certificate if it is due, where the lease is held, and no failed attempt holds it back. */
    private void renewNow() {
        if (lease.held() && System.nanoTime() - retryAtNanos >= 0) {
            try {
                acme.renewIfDue();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (Exception e) {
                retryAtNanos = System.nanoTime() + RETRY_AFTER.toNanos();
                LOG.log(Level.WARNING, "cannot obtain the certificate for "
                        + config.letsEncrypt().hostname().orElseThrow() + " (trying again in "
                        + RETRY_AFTER.toMinutes() + " minutes): " + causes(e));
            }
        }
    }

    /** The message and its causes' ("Network error" alone says little): "a: b: c". */
    private static String causes(Throwable e) {
        StringBuilder text = new StringBuilder(String.valueOf(e.getMessage()));
        for (Throwable cause = e.getCause(); cause != null && cause != cause.getCause(); cause = cause.getCause()) {
            text.append(": ").append(cause.getMessage() != null ? cause.getMessage() : cause.getClass().getSimpleName());
        }
        return text.toString();
    }

    /** The answers to the challenges under way, when the server obtains its certificate by ACME. */
    AcmeChallenges challenges() {
        return challenges;
    }

    /** The HTTP-01 listener's port, or -1 when none runs. */
    public int challengePort() {
        return challengeListener == null ? -1 : challengeListener.address().getPort();
    }

    @Override
    public synchronized void close() {
        if (schedule != null) {
            schedule.shutdownNow();
        }
        if (challengeListener != null) {
            challengeListener.close();
        }
    }
}
