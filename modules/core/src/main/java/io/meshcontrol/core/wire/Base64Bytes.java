package io.meshcontrol.core.wire;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Arrays;
import java.util.Base64;

/**
 * Opaque bytes as Go writes a {@code []byte}: standard base64 with padding. Used for tailnet-lock signatures, device
 * certificates and c2n ping payloads, which the control server passes on without interpreting. Immutable.
 */
public final class Base64Bytes {

    private final byte[] bytes;

    private Base64Bytes(byte[] bytes) {
        this.bytes = bytes;
    }

    /** Wraps a copy of {@code bytes}. */
    public static Base64Bytes of(byte[] bytes) {
        return new Base64Bytes(bytes.clone());
    }

    /**
     * Decodes standard base64, as Go's {@code encoding/json} does for {@code []byte}.
     *
     * @throws IllegalArgumentException when the text is not standard base64
     */
    @JsonCreator
    public static Base64Bytes parse(String base64) {
        return new Base64Bytes(Base64.getDecoder().decode(base64));
    }

    /** A copy of the bytes. */
    public byte[] bytes() {
        return bytes.clone();
    }

    public int length() {
        return bytes.length;
    }

    /** The base64 text; empty bytes write as {@code ""}, which {@link OmitEmpty} leaves out as Go's omitempty does. */
    @JsonValue
    public String base64() {
        return Base64.getEncoder().encodeToString(bytes);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof Base64Bytes that && Arrays.equals(bytes, that.bytes);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(bytes);
    }

    @Override
    public String toString() {
        return base64();
    }
}
