package io.meshcontrol.core.lock;

import io.meshcontrol.core.MeshException;
import java.util.Arrays;
import java.util.HexFormat;
import org.bouncycastle.util.encoders.Base32;

/**
 * The BLAKE2s-256 digest of an AUM's encoding, which names it; its text form is base32 (RFC 4648 alphabet) without
 * padding, 52 characters, as clients send heads and ancestors.
 */
public record AumHash(byte[] bytes) {

    /** 32 bytes in base32 without its 4 padding characters. */
    private static final int TEXT_LENGTH = 52;
    private static final int LENGTH = 32;

    public AumHash {
        if (bytes == null || bytes.length != LENGTH) {
            throw MeshException.invalid("an AUM hash has " + LENGTH + " bytes");
        }
        bytes = bytes.clone();
    }

    /** The hash of an AUM encoded as {@code encoded}. */
    public static AumHash of(byte[] encoded) {
        return new AumHash(LockCrypto.blake2s256(encoded));
    }

    @Override
    public byte[] bytes() {
        return bytes.clone();
    }

    /** Parses the base32 text form. */
    public static AumHash parse(String text) {
        if (text == null || text.length() != TEXT_LENGTH) {
            throw MeshException.invalid("an AUM hash is " + TEXT_LENGTH + " base32 characters (got \"" + text + "\")");
        }
        try {
            return new AumHash(Base32.decode(text + "===="));
        } catch (RuntimeException e) {
            throw MeshException.invalid("an AUM hash is base32 (got \"" + text + "\")");
        }
    }

    /** The base32 text form, unpadded. */
    public String text() {
        return Base32.toBase32String(bytes).substring(0, TEXT_LENGTH);
    }

    public String hex() {
        return HexFormat.of().formatHex(bytes);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof AumHash hash && Arrays.equals(bytes, hash.bytes);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(bytes);
    }

    @Override
    public String toString() {
        return text();
    }
}
