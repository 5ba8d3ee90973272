package io.meshcontrol.core.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.core.MeshException;
import io.meshcontrol.core.auth.Caller;
import io.meshcontrol.core.model.AuditEntry;
import io.meshcontrol.core.model.Role;
import io.meshcontrol.core.testing.TestNetwork;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;

class ApiKeyLifecycleTest {

    @TempDir
    Path folder;
    TestNetwork net;
    ApiKeys keys;

    @BeforeEach
    void setUp() {
        net = new TestNetwork(folder);
        keys = net.network.apiKeys();
    }

    @Test
    void secretIsShownOnceAndOnlyItsHashIsStored() {
        ApiKeys.Issued issued = keys.create(net.admin, null, List.of(), "ci", null);
        assertTrue(issued.secret().startsWith("svckey-api-" + issued.key().prefix() + "-"));
        String stored = net.network.database().jdbi().withHandle(h ->
                h.createQuery("SELECT secret_hash FROM api_keys").mapTo(String.class).one());
        assertFalse(stored.contains(issued.secret().substring(issued.secret().lastIndexOf('-') + 1)));
        assertTrue(keys.authenticate(issued.secret()).isPresent());
    }

    @Test
    void defaultExpiryIsNinetyDays() {
        ApiKeys.Issued issued = keys.create(net.admin, null, List.of(), "", null);
        assertEquals(Duration.ofDays(90), Duration.between(issued.key().createdAt(), issued.key().expiresAt()));
        net.clock.advance(Duration.ofDays(90));
        assertTrue(keys.authenticate(issued.secret()).isEmpty(), "a key is refused from its expiry on");
    }

    @Test
    void rotationKeepsIdentityAndRefusesTheOldSecretAtOnce() {
        net.user("odin", Role.ADMIN);
        ApiKeys.Issued first = keys.create(net.admin, "odin", List.of("users"), "deploy", Duration.ofDays(10));
        ApiKeys.Issued rotated = keys.rotate(net.admin, first.key().prefix(), null);

        assertEquals(first.key().id(), rotated.key().id());
        assertEquals(first.key().ownerUserId(), rotated.key().ownerUserId());
        assertEquals(first.key().scopes(), rotated.key().scopes());
        assertEquals(first.key().description(), rotated.key().description());
        assertEquals(first.key().expiresAt(), rotated.key().expiresAt(), "expiry unchanged without --expiration");
        assertNotEquals(first.key().prefix(), rotated.key().prefix());
        assertTrue(keys.authenticate(first.secret()).isEmpty());
        assertTrue(keys.authenticate(rotated.secret()).isPresent());

        List<AuditEntry> entries = net.network.auditLog().recent("apikey.rotate", 10);
        assertEquals(1, entries.size());
        assertEquals(first.key().prefix(), entries.getFirst().details().get("oldPrefix"));
        assertEquals(rotated.key().prefix(), entries.getFirst().details().get("newPrefix"));
    }

    @Test
    void rotationWithExpirationCountsFromNow() {
        ApiKeys.Issued first = keys.create(net.admin, null, List.of(), "", Duration.ofDays(1));
        net.clock.advance(Duration.ofHours(5));
        ApiKeys.Issued rotated = keys.rotate(net.admin, first.key().prefix(), Duration.ofDays(30));
        assertEquals(net.clock.instant().plus(Duration.ofDays(30)), rotated.key().expiresAt());
    }

    @Test
    void expiredKeyIsRefusedAndCannotBeRotated() {
        ApiKeys.Issued issued = keys.create(net.admin, null, List.of(), "", null);
        keys.expire(net.admin, issued.key().prefix());
        assertTrue(keys.authenticate(issued.secret()).isEmpty());
        MeshException refused = assertThrows(MeshException.class, () -> keys.rotate(net.admin, issued.key().prefix(), null));
        assertTrue(refused.getMessage().contains("expired"), refused.getMessage());
    }

    @Test
    void scopedKeyMayNotRotateAKeyBeyondItsScopes() {
        Caller scoped = net.callerFor(null, List.of("api_access_tokens", "dns"));
        ApiKeys.Issued broad = keys.create(net.admin, null, List.of(), "all access", null);
        MeshException refused = assertThrows(MeshException.class, () -> keys.rotate(scoped, broad.key().prefix(), null));
        assertEquals(MeshException.Reason.FORBIDDEN, refused.reason());
        assertTrue(keys.authenticate(broad.secret()).isPresent(), "a refused rotation changes nothing");

        ApiKeys.Issued narrow = keys.create(net.admin, null, List.of("dns"), "dns only", null);
        assertEquals(narrow.key().id(), keys.rotate(scoped, narrow.key().prefix(), null).key().id());
    }

    @Test
    void aCallerWhoMayNotManageKeysLearnsNothingOfWhichPrefixesExist() {
        Caller reader = net.callerFor(null, List.of("dns"));
        ApiKeys.Issued real = keys.create(net.admin, null, List.of(), "", null);
        String expired = keys.create(net.admin, null, List.of(), "", null).key().prefix();
        keys.expire(net.admin, expired);
        for (String prefix : List.of(real.key().prefix(), expired, "nosuchprefix")) {
            for (Executable call : List.<Executable>of(
                    () -> keys.expire(reader, prefix), () -> keys.rotate(reader, prefix, null))) {
                assertEquals(MeshException.Reason.FORBIDDEN, assertThrows(MeshException.class, call).reason(), prefix);
            }
        }
        assertTrue(keys.authenticate(real.secret()).isPresent(), "a refused call changes nothing");
    }

    @Test
    void prefixIsAcceptedWithOrWithoutTextPrefix() {
        ApiKeys.Issued issued = keys.create(net.admin, null, List.of(), "", null);
        keys.expire(net.admin, "svckey-api-" + issued.key().prefix());
        assertTrue(keys.authenticate(issued.secret()).isEmpty());
    }

    @Test
    void tamperedSecretIsRefused() {
        ApiKeys.Issued issued = keys.create(net.admin, null, List.of(), "", null);
        String secret = issued.secret();
        char last = secret.charAt(secret.length() - 1);
        String tampered = secret.substring(0, secret.length() - 1) + (last == 'a' ? 'b' : 'a');
        assertTrue(keys.authenticate(tampered).isEmpty());
    }
}
