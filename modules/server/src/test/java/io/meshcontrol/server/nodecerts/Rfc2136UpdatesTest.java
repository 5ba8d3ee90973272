package io.meshcontrol.server.nodecerts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.meshcontrol.core.config.HostPort;
import io.meshcontrol.server.testing.KnotServer;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * RFC 2136 updates signed with TSIG against a real DNS server, Knot: a published record can be queried, a removal
 * takes out that record only, and a server that refuses the update (a wrong secret, a key it does not know) is a
 * failure that says what it answered.
 */
class Rfc2136UpdatesTest {

    private static final String NAME = "_acme-challenge.web." + KnotServer.ZONE;
    private static final String VALUE = "LoqXcYV8q5ONbJQxbmR7SCTNo3tiAXDfowyjxAjEuX0";
    private static final String OTHER = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFG";

    @TempDir
    Path folder;
    KnotServer knot;

    @BeforeEach
    void start() throws Exception {
        assumeTrue(KnotServer.available(), "Knot (knotd, kdig) is not installed: scripts/install-test-packages.sh");
        knot = KnotServer.start(folder.resolve("knot"));
    }

    @AfterEach
    void stop() {
        if (knot != null) {
            knot.close();
        }
    }

    private Rfc2136Updates updates(String keyName, String algorithm, byte[] secret) {
        return new Rfc2136Updates(new Rfc2136Updates.Settings(new HostPort("127.0.0.1", knot.port()), KnotServer.ZONE,
                new DnsUpdateMessage.TsigKey(keyName, algorithm, secret), Duration.ofSeconds(5)), Clock.systemUTC());
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"hmac-sha256", "hmac-sha512"})
    void aPublishedRecordIsServedUntilItIsRemoved(String algorithm) throws Exception {
        Rfc2136Updates updates = updates("mesh-" + algorithm.substring(5), algorithm, knot.secret(algorithm));
        updates.publish(new TxtRecord(NAME, VALUE));
        assertEquals(List.of(VALUE), knot.txt(NAME));

        updates.remove(new TxtRecord(NAME, VALUE));
        assertEquals(List.of(), knot.txt(NAME));
    }

    @Test
    void aRemovalTakesOutThatValueOnly() throws Exception {
        Rfc2136Updates updates = updates("mesh-sha256", "hmac-sha256", knot.secret("hmac-sha256"));
        updates.publish(new TxtRecord(NAME, VALUE));
        updates.publish(new TxtRecord(NAME, OTHER));
        assertEquals(List.of(OTHER, VALUE), knot.txt(NAME).stream().sorted().toList());

        updates.remove(new TxtRecord(NAME, VALUE));
        assertEquals(List.of(OTHER), knot.txt(NAME));
        updates.remove(new TxtRecord(NAME, VALUE));
        assertEquals(List.of(OTHER), knot.txt(NAME), "removing what is not there changes nothing");
    }

    @Test
    void aWrongSecretIsRefusedAndNothingIsPublished() throws Exception {
        byte[] wrong = knot.secret("hmac-sha256");
        wrong[0] ^= 1;
        DnsUpdateException refused = assertThrows(DnsUpdateException.class,
                () -> updates("mesh-sha256", "hmac-sha256", wrong).publish(new TxtRecord(NAME, VALUE)));
        assertTrue(refused.getMessage().contains("refused the update: NOTAUTH")
                && refused.getMessage().contains("TSIG BADSIG"), refused.getMessage());
        assertEquals(List.of(), knot.txt(NAME));
    }

    @Test
    void anUnknownKeyIsRefused() {
        DnsUpdateException refused = assertThrows(DnsUpdateException.class,
                () -> updates("someone-else", "hmac-sha256", knot.secret("hmac-sha256"))
                        .publish(new TxtRecord(NAME, VALUE)));
        assertTrue(refused.getMessage().contains("TSIG BADKEY"), refused.getMessage());
    }

    @Test
    void aServerThatIsNotThereIsAFailureNamingIt() throws Exception {
        int port = knot.port();
        knot.close();
        knot = null;
        Rfc2136Updates updates = new Rfc2136Updates(new Rfc2136Updates.Settings(new HostPort("127.0.0.1", port),
                KnotServer.ZONE, new DnsUpdateMessage.TsigKey("mesh-sha256", "hmac-sha256", new byte[32]),
                Duration.ofSeconds(2)), Clock.systemUTC());
        java.io.IOException failed = assertThrows(java.io.IOException.class,
                () -> updates.publish(new TxtRecord(NAME, VALUE)));
        assertTrue(failed.getMessage().startsWith("the DNS server 127.0.0.1:" + port + " could not be reached"),
                failed.getMessage());
    }
}
