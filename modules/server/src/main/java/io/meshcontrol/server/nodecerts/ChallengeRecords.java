package io.meshcontrol.server.nodecerts;

import io.meshcontrol.core.config.HostPort;
import io.meshcontrol.core.config.MeshConfig;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The challenge records nodes asked for at {@code /machine/set-dns}, published through the {@link DnsProvider} and
 * removed again {@code https_certificates.record_lifetime} after they were published (the ACME server checks them
 * within seconds of the node's answer). One record per name: a new value for a name replaces the one published
 * before (a retried challenge), which is removed first. Records still published when the server stops stay in the
 * zone, where they do no harm (stale challenge answers nobody asks for).
 *
 * <p>Provider calls are made one at a time, so that a replacement and a removal of the same name cannot cross.
 */
public final class ChallengeRecords {

    private static final System.Logger LOG = System.getLogger(ChallengeRecords.class.getName());

    private final DnsProvider provider;
    private final Duration lifetime;
    private final Clock clock;
    private final ScheduledExecutorService scheduler;
    private final ReentrantLock lock = new ReentrantLock();
    private final Map<String, Published> published = new LinkedHashMap<>(); // by name; guarded by lock

    private record Published(TxtRecord record, Instant removeAt) {
    }

    public ChallengeRecords(DnsProvider provider, Duration lifetime, Clock clock, ScheduledExecutorService scheduler) {
        this.provider = provider;
        this.lifetime = lifetime;
        this.clock = clock;
        this.scheduler = scheduler;
    }

    /**
     * The records of {@code config}'s provider, or none when nodes get no certificates.
     *
     * @param baseDomain the MagicDNS domain, the zone of RFC 2136 updates unless one is configured
     */
    public static Optional<ChallengeRecords> from(MeshConfig.HttpsCertificates config, String baseDomain, Clock clock,
            ScheduledExecutorService scheduler) {
        if (!config.enabled()) {
            return Optional.empty();
        }
        DnsProvider provider = switch (config.dnsProvider()) {
            case RFC2136 -> {
                MeshConfig.Rfc2136 rfc = config.rfc2136();
                yield new Rfc2136Updates(new Rfc2136Updates.Settings(HostPort.parse(rfc.server().orElseThrow()),
                        rfc.zone().isEmpty() ? baseDomain : rfc.zone(), new DnsUpdateMessage.TsigKey(
                                rfc.tsigKeyName(), rfc.tsigAlgorithm().configName(),
                                Base64.getDecoder().decode(rfc.tsigSecret().orElseThrow())), rfc.timeout()), clock);
            }
            case COMMAND -> new CommandHook(config.command().path().orElseThrow(), config.command().timeout());
            case NONE -> throw new IllegalArgumentException("https_certificates.enabled needs a dns_provider");
        };
        return Optional.of(new ChallengeRecords(provider, config.recordLifetime(), clock, scheduler));
    }

    /** Publishes {@code record}, replacing the value published for its name before; returns once it is published. */
    public void publish(TxtRecord record) throws IOException, InterruptedException {
        lock.lockInterruptibly();
        try {
            Published before = published.remove(record.name());
            if (before != null && !before.record().equals(record)) {
                removeQuietly(before.record());
            }
            provider.publish(record);
            published.put(record.name(), new Published(record, clock.instant().plus(lifetime)));
        } finally {
            lock.unlock();
        }
        scheduler.schedule(this::removeExpired, lifetime.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Removes the records whose lifetime has passed. */
    public void removeExpired() {
        Instant now = clock.instant();
        lock.lock();
        try {
            List<Published> due = new ArrayList<>();
            for (Published p : published.values()) {
                if (!p.removeAt().isAfter(now)) {
                    due.add(p);
                }
            }
            for (Published p : due) {
                published.remove(p.record().name());
                removeQuietly(p.record());
            }
        } finally {
            lock.unlock();
        }
    }

    /** The records published and not yet removed. */
    public List<TxtRecord> published() {
        lock.lock();
        try {
            return published.values().stream().map(Published::record).toList();
        } finally {
            lock.unlock();
        }
    }

    private void removeQuietly(TxtRecord record) {
        try {
            provider.remove(record);
        } catch (IOException e) {
            LOG.log(Level.WARNING, "could not remove the challenge record " + record.name() + ": " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            LOG.log(Level.WARNING, "interrupted while removing the challenge record " + record.name());
        }
    }
}
