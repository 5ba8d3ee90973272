package io.meshcontrol.server.http;

import io.meshcontrol.core.MeshException;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.undertow.server.HttpServerExchange;
import io.undertow.util.Headers;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Back-off per remote address after repeated failed credentials: API keys and OAuth access tokens on the APIs, client
 * secrets and workload tokens at the token endpoints, API keys at console sign-in (docs/security.md). An address has
 * {@code listener.failed_credentials_per_address} failures free (10 by default; 0 turns this off); each further one is
 * answered 429 with a {@code Retry-After} that doubles from one second up to five minutes, until the address has
 * failed nothing for {@link #FORGET_AFTER}. A credential that
 * is valid always passes, from a backed-off address too: an attacker sharing a NAT or a proxy with real users cannot
 * lock them out, and the secrets are random, so the back-off is there to stop noise and runaway scripts, not
 * guessing. The table holds at most {@value #MAX_ADDRESSES} addresses; the one idle longest makes room.
 */
public final class FailedCredentials {

    static final Duration FIRST_BACKOFF = Duration.ofSeconds(1);
    static final Duration MAX_BACKOFF = Duration.ofMinutes(5);
    static final Duration FORGET_AFTER = Duration.ofMinutes(10);
    static final int MAX_ADDRESSES = 10_000;

    /** A failed credential answered 429: the caller should wait {@code retryAfter} before trying again. */
    public static final class TooManyFailures extends RuntimeException {

        private final Duration retryAfter;

        TooManyFailures(Duration retryAfter, String refusal) {
            super("too many failed credentials from this address: retry after " + retryAfter.toSeconds()
                    + " s (" + refusal + ")");
            this.retryAfter = retryAfter;
        }

        public Duration retryAfter() {
            return retryAfter;
        }
    }

    private record Failures(int count, Instant last) {
    }

    private final Clock clock;
    private final int freeFailures;
    private final Counter outcomes;
    /** Access-ordered, so that the eldest entry is the address idle longest. */
    private final LinkedHashMap<InetAddress, Failures> byAddress = new LinkedHashMap<>(64, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<InetAddress, Failures> eldest) {
            return size() > MAX_ADDRESSES;
        }
    };

    /** @param freeFailures failures an address may have before the back-off; 0 for no back-off at all */
    public FailedCredentials(Clock clock, PrometheusRegistry registry, int freeFailures) {
        this.clock = clock;
        this.freeFailures = freeFailures;
        this.outcomes = Counter.builder()
                .name("svc_credential_failures_total")
                .help("Failed credentials (API keys, tokens, client secrets, console sign-in), by answer: refused "
                        + "(401) or backoff (429, the address failed too often)")
                .labelNames("answer")
                .register(registry);
        GaugeWithCallback.builder()
                .name("svc_credential_failure_addresses")
                .help("Remote addresses with recent failed credentials that the back-off keeps track of")
                .callback(callback -> callback.call(tracked()))
                .register(registry);
    }

    /** The authentication of an API, with failed credentials counted against the request's address. */
    public Authentication guarding(Authentication authentication) {
        return exchange -> {
            // A request without a credential has failed nothing (a browser before sign-in, a probe of a route).
            if (freeFailures == 0 || !exchange.getRequestHeaders().contains(Headers.AUTHORIZATION)) {
                return authentication.authenticate(exchange);
            }
            return check(exchange, () -> authentication.authenticate(exchange));
        };
    }

    /**
     * Runs a credential check for the request's address: what it returns passes untouched; an unauthenticated
     * refusal is counted and thrown as it is, or as {@link TooManyFailures} once the address has had its free failures.
     */
    public <T> T check(HttpServerExchange exchange, Supplier<T> credentialCheck) {
        InetSocketAddress source = exchange.getSourceAddress();
        return check(source == null ? null : source.getAddress(), credentialCheck);
    }

    <T> T check(InetAddress address, Supplier<T> credentialCheck) {
        try {
            return credentialCheck.get();
        } catch (MeshException e) {
            if (e.reason() != MeshException.Reason.UNAUTHENTICATED || address == null || freeFailures == 0) {
                throw e;
            }
            Optional<Duration> backoff = failed(address);
            outcomes.labelValues(backoff.isPresent() ? "backoff" : "refused").inc();
            if (backoff.isPresent()) {
                throw new TooManyFailures(backoff.get(), e.getMessage());
            }
            throw e;
        }
    }

    /** Counts a failure; the back-off it earns, if the address is past its free failures. */
    private synchronized Optional<Duration> failed(InetAddress address) {
        Instant now = clock.instant();
        Failures before = byAddress.get(address);
        int count = before == null || before.last().plus(FORGET_AFTER).isBefore(now) ? 1 : before.count() + 1;
        byAddress.put(address, new Failures(count, now));
        int over = count - freeFailures;
        if (over <= 0) {
            return Optional.empty();
        }
        // 1 s, 2 s, 4 s ... capped; the shift is bounded so that it cannot overflow
        Duration backoff = FIRST_BACKOFF.multipliedBy(1L << Math.min(over - 1, 20));
        return Optional.of(backoff.compareTo(MAX_BACKOFF) > 0 ? MAX_BACKOFF : backoff);
    }

    synchronized int tracked() {
        return byAddress.size();
    }
}
