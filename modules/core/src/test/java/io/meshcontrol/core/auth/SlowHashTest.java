package io.meshcontrol.core.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.meshcontrol.core.crypto.Sha256;
import org.junit.jupiter.api.Test;

/** OAuth client secrets get a salted, slow hash; credentials checked on every request keep the fast one. */
class SlowHashTest {

    @Test
    void aClientSecretIsStoredSaltedAndSlowAndMatchesOnlyItself() {
        KeySecret secret = KeySecret.generate(KeySecret.Kind.CLIENT);
        String stored = secret.hash();
        assertTrue(stored.startsWith("pbkdf2-sha256$210000$"), stored);
        assertNotEquals(stored, secret.hash(), "each hash has its own salt");
        assertTrue(secret.matches(stored));
        KeySecret other = new KeySecret(KeySecret.Kind.CLIENT, secret.prefix(), "x".repeat(32));
        assertFalse(other.matches(stored));
        assertTrue(KeySecret.parse(KeySecret.Kind.CLIENT, "tskey-client-" + secret.prefix() + "-" + secret.secret())
                .orElseThrow().matches(stored), "the vendor's prefix presents the same secret");
    }

    @Test
    void apiKeysAndTokensKeepTheFastHashTheyAreCheckedWithOnEveryRequest() {
        KeySecret key = KeySecret.generate(KeySecret.Kind.API);
        assertEquals(Sha256.hex(key.secret()), key.hash());
        assertTrue(key.matches(key.hash()));
        KeySecret token = KeySecret.generate(KeySecret.Kind.TOKEN);
        assertEquals(64, token.hash().length());
    }

    @Test
    void aStoredValueThatIsNoSlowHashThisCodeWroteMatchesNothing() {
        assertFalse(SlowHash.matches("secret", "pbkdf2-sha256$"));
        assertFalse(SlowHash.matches("secret", "pbkdf2-sha256$x$y$z"));
        assertFalse(SlowHash.matches("secret", "pbkdf2-sha256$0$AAAA$AAAA"));
    }
}
