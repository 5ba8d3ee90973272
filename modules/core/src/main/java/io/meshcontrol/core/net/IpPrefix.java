package io.meshcontrol.core.net;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

/**
 * An IP prefix as Go's {@code netip.Prefix} writes it: {@code "100.64.0.1/32"}, {@code "0.0.0.0/0"}. Like Go, the
 * address keeps bits beyond the prefix length ({@code "10.0.0.1/8"} stays as it is). Immutable.
 */
public final class IpPrefix {

    private final IpAddress address;
    private final int bits;
    private final String text;

    private IpPrefix(IpAddress address, int bits) {
        this.address = address;
        this.bits = bits;
        this.text = address + "/" + bits;
    }

    /**
     * Parses text as Go's {@code netip.ParsePrefix} does: an address without zone, a slash, and a prefix length in
     * decimal without leading zeros that fits the address family.
     *
     * @throws IllegalArgumentException when it is not a prefix
     */
    @JsonCreator
    public static IpPrefix parse(String text) {
        int slash = text.lastIndexOf('/');
        if (slash < 0) {
            throw new IllegalArgumentException("not an IP prefix (no '/'): \"" + text + "\"");
        }
        IpAddress address = IpAddress.parse(text.substring(0, slash));
        if (!address.zone().isEmpty()) {
            throw new IllegalArgumentException("an IP prefix has no zone: \"" + text + "\"");
        }
        String bitsText = text.substring(slash + 1);
        int bits = -1;
        if (!bitsText.isEmpty() && bitsText.length() <= 3 && bitsText.chars().allMatch(c -> c >= '0' && c <= '9')
                && (bitsText.length() == 1 || bitsText.charAt(0) != '0')) {
            bits = Integer.parseInt(bitsText);
        }
        if (bits < 0 || bits > address.bitLength()) {
            throw new IllegalArgumentException("bad prefix length in \"" + text + "\"");
        }
        return new IpPrefix(address, bits);
    }

    /** The prefix of {@code bits} length starting at {@code address}. */
    public static IpPrefix of(IpAddress address, int bits) {
        if (bits < 0 || bits > address.bitLength() || !address.zone().isEmpty()) {
            throw new IllegalArgumentException("bad prefix " + address + "/" + bits);
        }
        return new IpPrefix(address, bits);
    }

    /** The single-address prefix ({@code /32} or {@code /128}) of an address, as node addresses are written. */
    public static IpPrefix single(IpAddress address) {
        return of(address, address.bitLength());
    }

    /**
     * Go's {@code Prefix.Masked}: the same prefix with the address bits beyond its length cleared
     * ({@code 10.0.0.0/8} for {@code 10.0.0.1/8}); this prefix itself when none are set.
     */
    public IpPrefix masked() {
        byte[] bytes = address.bytes();
        for (int i = 0; i < bytes.length; i++) {
            int keep = Math.max(0, Math.min(8, bits - i * 8));
            bytes[i] &= (byte) (0xff << (8 - keep));
        }
        IpPrefix masked = new IpPrefix(IpAddress.of(bytes), bits);
        return masked.equals(this) ? this : masked;
    }

    /** Whether every address of {@code inner} lies in this prefix: the same family, as long or longer, same leading bits. */
    public boolean contains(IpPrefix inner) {
        return inner.address.bitLength() == address.bitLength() && inner.bits >= bits
                && of(inner.address, bits).masked().equals(masked());
    }

    public IpAddress address() {
        return address;
    }

    public int bits() {
        return bits;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof IpPrefix that && bits == that.bits && address.equals(that.address);
    }

    @Override
    public int hashCode() {
        return address.hashCode() * 31 + bits;
    }

    /** Go's text form. */
    @JsonValue
    @Override
    public String toString() {
        return text;
    }
}
