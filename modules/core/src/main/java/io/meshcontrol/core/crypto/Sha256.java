package io.meshcontrol.core.crypto;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * SHA-256 of a text's UTF-8 bytes in lower-case hex: how random secrets are stored, and the ETags and document names
 * that must change with a text without repeating it.
 */
public final class Sha256 {

    private Sha256() {
    }

    /** The whole digest, 64 hex digits. */
    public static String hex(String text) {
        return hex(text, 32);
    }

    /** The digest's first {@code bytes} bytes, in hex (16 bytes are plenty for a tag or a name). */
    public static String hex(String text, int bytes) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest, 0, bytes);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required of every JDK", e);
        }
    }
}
