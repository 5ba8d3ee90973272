package io.meshcontrol.server.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.core.MeshException;
import io.meshcontrol.core.testing.MovableClock;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.net.InetAddress;
import java.time.Duration;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/** Issue 33: failed credentials are slowed per address, on an injected clock; valid ones never are. */
class FailedCredentialsTest {

    private static final int FREE = 10;
    private final MovableClock clock = MovableClock.startingAt2026();
    private final PrometheusRegistry registry = new PrometheusRegistry();
    private final FailedCredentials failures = new FailedCredentials(clock, registry, FREE);
    private static final Supplier<String> WRONG = () -> {
        throw MeshException.unauthenticated("invalid, expired or revoked credential");
    };

    private static InetAddress address(int n) throws Exception {
        return InetAddress.getByAddress(new byte[] {10, (byte) (n >> 16), (byte) (n >> 8), (byte) n});
    }

    private Duration backoff(InetAddress from) {
        return assertThrows(FailedCredentials.TooManyFailures.class, () -> failures.check(from, WRONG)).retryAfter();
    }

    private void refused(InetAddress from) {
        assertEquals(MeshException.Reason.UNAUTHENTICATED,
                assertThrows(MeshException.class, () -> failures.check(from, WRONG)).reason());
    }

    @Test
    void afterTenFailuresEachFurtherOneBacksOffDoublingUpToFiveMinutes() throws Exception {
        InetAddress from = address(1);
        for (int i = 0; i < FREE; i++) {
            refused(from);
        }
        assertEquals(Duration.ofSeconds(1), backoff(from));
        clock.advance(Duration.ofSeconds(1));
        assertEquals(Duration.ofSeconds(2), backoff(from));
        assertEquals(Duration.ofSeconds(4), backoff(from));
        for (int i = 0; i < 10; i++) {
            backoff(from);
        }
        assertEquals(Duration.ofMinutes(5), backoff(from), "capped");
        refused(address(2)); // another address is not concerned
    }

    @Test
    void aValidCredentialPassesFromABackedOffAddressAndCountsNothing() throws Exception {
        InetAddress from = address(1);
        for (int i = 0; i <= FREE; i++) {
            assertThrows(RuntimeException.class, () -> failures.check(from, WRONG));
        }
        assertEquals("caller", failures.check(from, () -> "caller"));
        assertEquals(Duration.ofSeconds(2), backoff(from), "the success reset nothing, and was not counted");
        MeshException forbidden = assertThrows(MeshException.class, () -> failures.check(from, () -> {
            throw MeshException.forbidden("needs users");
        }));
        assertEquals(MeshException.Reason.FORBIDDEN, forbidden.reason(), "only credentials count");
    }

    @Test
    void anAddressQuietForTenMinutesStartsAfresh() throws Exception {
        InetAddress from = address(1);
        for (int i = 0; i <= FREE; i++) {
            assertThrows(RuntimeException.class, () -> failures.check(from, WRONG));
        }
        clock.advance(FailedCredentials.FORGET_AFTER.plusSeconds(1));
        refused(from);
    }

    @Test
    void theTableKeepsAtMostTenThousandAddresses() throws Exception {
        for (int n = 0; n < FailedCredentials.MAX_ADDRESSES + 500; n++) {
            refused(address(n));
        }
        assertEquals(FailedCredentials.MAX_ADDRESSES, failures.tracked());
    }

    @Test
    void noFreeFailuresSettingTurnsTheBackOffOff() throws Exception {
        FailedCredentials off = new FailedCredentials(clock, new PrometheusRegistry(), 0);
        for (int i = 0; i < 100; i++) {
            assertEquals(MeshException.Reason.UNAUTHENTICATED,
                    assertThrows(MeshException.class, () -> off.check(address(1), WRONG)).reason());
        }
        assertEquals(0, off.tracked());
    }

    @Test
    void refusalsAndBackOffsAreCounted() throws Exception {
        InetAddress from = address(1);
        for (int i = 0; i < FREE + 3; i++) {
            assertThrows(RuntimeException.class, () -> failures.check(from, WRONG));
        }
        var samples = registry.scrape();
        String text = samples.toString();
        assertTrue(samples.stream().anyMatch(m -> m.getMetadata().getPrometheusName().equals("svc_credential_failures")),
                text);
        var counter = (io.prometheus.metrics.model.snapshots.CounterSnapshot) samples.stream()
                .filter(m -> m.getMetadata().getPrometheusName().equals("svc_credential_failures")).findFirst()
                .orElseThrow();
        double refused = counter.getDataPoints().stream()
                .filter(d -> d.getLabels().get("answer").equals("refused")).mapToDouble(d -> d.getValue()).sum();
        double backoff = counter.getDataPoints().stream()
                .filter(d -> d.getLabels().get("answer").equals("backoff")).mapToDouble(d -> d.getValue()).sum();
        assertEquals(10.0, refused);
        assertEquals(3.0, backoff);
    }
}
