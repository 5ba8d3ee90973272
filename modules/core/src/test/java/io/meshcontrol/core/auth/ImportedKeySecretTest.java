package io.meshcontrol.core.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import org.bouncycastle.crypto.generators.OpenBSDBCrypt;
import org.junit.jupiter.api.Test;

/** headscale's pre-auth keys, carried by {@code svc import headscale}: parsed by length, checked against bcrypt. */
class ImportedKeySecretTest {

    private static final String SECRET = "-_" + "a1".repeat(31);

    @Test
    void aHeadscaleKeyIsSplitByLengthSinceItsPartsMayHoldDashes() {
        KeySecret key = KeySecret.parse(KeySecret.Kind.AUTH, "hskey-auth-ab-defghijkl-" + SECRET).orElseThrow();
        assertEquals("ab-defghijkl", key.prefix());
        assertEquals(SECRET, key.secret());
        assertEquals(Optional.empty(), KeySecret.parse(KeySecret.Kind.AUTH, "hskey-auth-short-" + SECRET));
        assertEquals(Optional.empty(), KeySecret.parse(KeySecret.Kind.API, "hskey-auth-ab-defghijkl-" + SECRET),
                "only pre-auth keys are carried");
    }

    @Test
    void itMatchesHeadscalesBcryptHashOfItsSecretOnly() {
        String hash = OpenBSDBCrypt.generate("2a", SECRET.toCharArray(), new byte[16], 4);
        KeySecret key = KeySecret.parse(KeySecret.Kind.AUTH, "hskey-auth-ab-defghijkl-" + SECRET).orElseThrow();
        assertTrue(key.matches(hash));
        String other = SECRET.substring(1) + "b";
        assertFalse(KeySecret.parse(KeySecret.Kind.AUTH, "hskey-auth-ab-defghijkl-" + other).orElseThrow()
                .matches(hash));
        assertFalse(key.matches("$2a$04$broken"), "a malformed hash matches nothing");
    }
}
