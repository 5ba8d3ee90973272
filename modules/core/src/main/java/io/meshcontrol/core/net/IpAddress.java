package io.meshcontrol.core.net;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Arrays;
import java.util.Optional;

/**
 * An IP address as Go's {@code netip.Addr} writes it: {@code "100.64.0.1"}, {@code "fd7a:115c:a1e0::1"}. Text is
 * checked when read (never resolved through DNS) and written in Go's canonical form. Immutable.
 */
public final class IpAddress {

    private final byte[] bytes;
    private final String zone;
    private final String text;

    private IpAddress(byte[] bytes, String zone) {
        this.bytes = bytes;
        this.zone = zone;
        this.text = IpText.format(bytes, zone);
    }

    /**
     * Parses text as Go's {@code netip.ParseAddr} does.
     *
     * @throws IllegalArgumentException when it is not an IP address
     */
    @JsonCreator
    public static IpAddress parse(String text) {
        IpText.Parsed parsed = IpText.parseAddress(text);
        return new IpAddress(parsed.bytes(), parsed.zone());
    }

    /** The address {@code text} is, or empty when it is none: for checks that word their own refusal. */
    public static Optional<IpAddress> tryParse(String text) {
        try {
            return Optional.of(parse(text));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    /** An address from its 4 (IPv4) or 16 (IPv6) bytes, which are copied. */
    public static IpAddress of(byte[] bytes) {
        if (bytes.length != 4 && bytes.length != 16) {
            throw new IllegalArgumentException("an IP address has 4 or 16 bytes, got " + bytes.length);
        }
        return new IpAddress(bytes.clone(), "");
    }

    /** A copy of the 4 or 16 address bytes. */
    public byte[] bytes() {
        return bytes.clone();
    }

    /** Whether this is an IPv4 address (not IPv4-mapped IPv6). */
    public boolean isIpv4() {
        return bytes.length == 4;
    }

    /** The IPv6 zone, {@code ""} for none. */
    public String zone() {
        return zone;
    }

    /** The number of bits: 32 or 128. */
    public int bitLength() {
        return bytes.length * 8;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof IpAddress that && Arrays.equals(bytes, that.bytes) && zone.equals(that.zone);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(bytes) * 31 + zone.hashCode();
    }

    /** Go's text form. */
    @JsonValue
    @Override
    public String toString() {
        return text;
    }
}
