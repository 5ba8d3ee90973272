package io.meshcontrol.core.auth;

import org.bouncycastle.crypto.generators.OpenBSDBCrypt;

/**
 * Hashes this server never writes but keeps for secrets imported from another control server: headscale stores the
 * secret part of its pre-auth keys as a bcrypt hash ({@code $2a$}, {@code $2b$} or {@code $2y$}), which is checked as
 * it is, so that an imported key still registers nodes. Only registration checks it, so bcrypt's cost is paid rarely.
 */
final class ImportedHash {

    private ImportedHash() {
    }

    static boolean isBcrypt(String stored) {
        return stored.startsWith("$2a$") || stored.startsWith("$2b$") || stored.startsWith("$2y$");
    }

    static boolean matchesBcrypt(String secret, String stored) {
        try {
            return OpenBSDBCrypt.checkPassword(stored, secret.toCharArray());
        } catch (RuntimeException e) {
            return false; // a malformed hash (its length, its salt) matches nothing
        }
    }
}
