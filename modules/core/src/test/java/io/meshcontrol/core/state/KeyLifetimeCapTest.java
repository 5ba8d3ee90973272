package io.meshcontrol.core.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.core.MeshException;
import io.meshcontrol.core.model.Role;
import io.meshcontrol.core.testing.TestNetwork;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * No key lives longer than its cap ({@code api_keys.max_expiration}, {@code preauth_keys.max_expiration}, a year by
 * default): a longer request is refused with the cap named, never shortened behind the caller's back.
 */
class KeyLifetimeCapTest {

    private static final Duration YEAR = Duration.ofDays(365);

    @TempDir
    Path folder;
    TestNetwork net;
    ApiKeys keys;

    @BeforeEach
    void setUp() {
        net = new TestNetwork(folder);
        keys = net.network.apiKeys();
    }

    private static void assertRefusedNaming(MeshException refused, String setting) {
        assertEquals(MeshException.Reason.INVALID, refused.reason());
        assertTrue(refused.getMessage().contains("8760h") && refused.getMessage().contains(setting), refused.getMessage());
    }

    @Test
    void anApiKeyLongerThanAYearIsRefusedAndNothingIsStored() {
        MeshException refused = assertThrows(MeshException.class,
                () -> keys.create(net.admin, null, List.of(), "", Duration.ofDays(365 * 300)));
        assertRefusedNaming(refused, "api_keys.max_expiration");
        assertEquals(List.of(), keys.list(net.admin));
    }

    @Test
    void aKeyCannotRotateItselfIntoTheFarFuture() {
        ApiKeys.Issued issued = keys.create(net.admin, null, List.of(), "", null);
        MeshException refused = assertThrows(MeshException.class,
                () -> keys.rotate(net.admin, issued.key().prefix(), YEAR.plusSeconds(1)));
        assertRefusedNaming(refused, "api_keys.max_expiration");
        assertTrue(keys.authenticate(issued.secret()).isPresent(), "the refused rotation changed nothing");
    }

    @Test
    void exactlyTheCapIsAllowed() {
        ApiKeys.Issued issued = keys.create(net.admin, null, List.of(), "", YEAR);
        assertEquals(net.clock.instant().plus(YEAR), issued.key().expiresAt());
        assertEquals(net.clock.instant().plus(YEAR),
                keys.rotate(net.admin, issued.key().prefix(), YEAR).key().expiresAt());
    }

    @Test
    void aPreAuthKeyLongerThanAYearIsRefused() {
        net.user("odin", Role.MEMBER);
        MeshException refused = assertThrows(MeshException.class, () -> net.network.preAuthKeys().create(net.admin,
                new PreAuthKeys.NewKey("odin", List.of(), false, false, false, "", Duration.ofDays(366))));
        assertRefusedNaming(refused, "preauth_keys.max_expiration");
        assertEquals(List.of(), net.network.preAuthKeys().list(net.admin));
    }

    @Test
    void aShorterConfiguredCapAlsoShortensTheDefault() {
        TestNetwork capped = new TestNetwork(folder.resolve("capped"), NetworkOptions.defaults()
                .withMaxKeyLifetimes(new MaxKeyLifetimes(Duration.ofDays(30), Duration.ofDays(7))));
        ApiKeys.Issued issued = capped.network.apiKeys().create(capped.admin, null, List.of(), "", null);
        assertEquals(Duration.ofDays(30), Duration.between(issued.key().createdAt(), issued.key().expiresAt()),
                "the 90-day default never exceeds the cap");
        MeshException refused = assertThrows(MeshException.class,
                () -> capped.network.apiKeys().create(capped.admin, null, List.of(), "", Duration.ofDays(31)));
        assertTrue(refused.getMessage().contains("720h"), refused.getMessage());
        capped.user("odin", Role.MEMBER);
        PreAuthKeys.Issued authKey = capped.network.preAuthKeys().create(capped.admin,
                new PreAuthKeys.NewKey("odin", List.of(), false, false, false, "", null));
        assertEquals(Duration.ofDays(7), Duration.between(authKey.key().createdAt(), authKey.key().expiresAt()));
    }
}
