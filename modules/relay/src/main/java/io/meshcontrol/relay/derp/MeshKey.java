package io.meshcontrol.relay.derp;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;

/**
 * The secret the relays of one region share ({@code derper --mesh-psk-file}): 32 bytes written as 64 hexadecimal
 * digits. A client that presents it in its ClientInfo is a mesh peer: it may watch who is connected and forward
 * packets, and it is admitted without client verification (it is a relay, not a node of the network).
 */
public final class MeshKey {

    private final byte[] bytes;

    private MeshKey(byte[] bytes) {
        this.bytes = bytes;
    }

    /** Parses the text form; surrounding white space is ignored, as derper does. */
    public static MeshKey parse(String text) {
        String hex = text.strip();
        if (hex.length() != 64) {
            throw new IllegalArgumentException("a DERP mesh key is 64 hexadecimal digits, not " + hex.length()
                    + " characters");
        }
        try {
            return new MeshKey(HexFormat.of().parseHex(hex));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("a DERP mesh key is 64 hexadecimal digits: " + e.getMessage());
        }
    }

    /** Reads a key file (the same file works for derper's {@code --mesh-psk-file}). */
    public static MeshKey load(Path file) throws IOException {
        try {
            return parse(Files.readString(file, StandardCharsets.UTF_8));
        } catch (IllegalArgumentException e) {
            throw new IOException(file + ": " + e.getMessage(), e);
        }
    }

    /** The form sent in ClientInfo's {@code meshKey}: lower-case hexadecimal. */
    public String toHex() {
        return HexFormat.of().formatHex(bytes);
    }

    /** Whether a presented key (hex text from a ClientInfo) is this one; compared in constant time. */
    boolean matches(String presented) {
        if (presented == null || presented.length() != 64) {
            return false;
        }
        byte[] other;
        try {
            other = HexFormat.of().parseHex(presented);
        } catch (IllegalArgumentException e) {
            return false;
        }
        return MessageDigest.isEqual(bytes, other);
    }

    @Override
    public String toString() {
        return "MeshKey[redacted]";
    }
}
